#if canImport(Glibc)
import Glibc
#endif
import VaultCore
import VaultCrypto

/// Where a new secret comes from: --secret-file, --generate, -w, stdin when it
/// is not a terminal, or a no-echo prompt typed twice. Never from argv unless
/// -w is given, and then with a warning.
struct SecretInput {
    let invocation: Invocation
    /// The options that name the source (validated).
    let source: SecretSourceOptions

    init(_ invocation: Invocation, _ source: SecretSourceOptions) {
        self.invocation = invocation
        self.source = source
    }

    /// Whether the options name a source other than stdin or the prompt.
    var hasExplicitSource: Bool { source.hasExplicitSource }

    /// Reads the new secret, refusing an empty secret unless --allow-empty;
    /// --trim-newline drops one trailing newline first.
    func read(access: VaultAccess) throws -> SecretBytes {
        var secret = try readSource(access: access)
        if source.trimNewline {
            secret = secret.withoutTrailingNewline
        } else if fromPipe, secret.isOneLineEndingInNewline {
            invocation.terminal.diagnostics.warning(
                "the secret read from the pipe ends in a newline, which is stored as part of it (echo adds one)")
            invocation.terminal.diagnostics.hint("add --trim-newline to drop it, or pipe with printf %s")
        }
        if secret.count == 0, !source.allowEmpty {
            throw UsageError(
                "the secret is empty; nothing was stored",
                hint: "give a non-empty secret (is the variable you piped unset?), or add --allow-empty to store an empty one")
        }
        return secret
    }

    /// Whether the secret comes from stdin and stdin is a pipe.
    private var fromPipe: Bool { !hasExplicitSource && invocation.terminal.stdinIsPipe }

    private func readSource(access: VaultAccess) throws -> SecretBytes {
        if let path = source.secretFile { return try readFile(path) }
        if source.generate { return try source.generator.rule().generate() }
        if let value = source.password {
            invocation.terminal.diagnostics.warning(
                "a secret given with -w is visible to other users in the process list; prefer stdin or --secret-file")
            return SecretBytes(Array(value.utf8))
        }
        if !invocation.terminal.stdinIsTTY {
            let (secret, total) = SecretStream.readCounting(STDIN_FILENO, limit: ItemLimits.maxSecretBytes)
            try Vault.validateSecretSize(total)
            return secret
        }
        if let reason = access.reasonPromptsAreOff { throw CommandFailure.interactionNotAllowed(reason: reason) }
        guard let first = try invocation.terminal.readHidden(prompt: "Secret: "),
            let second = try invocation.terminal.readHidden(prompt: "Secret (again): ")
        else {
            throw CommandFailure.interactionNotAllowed(reason: "no terminal")
        }
        guard first == second else {
            throw CommandFailure(.usage, "the two entries differ", hint: "run the command again and type the same secret twice")
        }
        return SecretBytes(first)
    }

    private func readFile(_ path: String) throws -> SecretBytes {
        let bytes = try SecretFile.read(path: path, limit: ItemLimits.maxSecretBytes)
        return bytes
    }
}

private extension SecretBytes {
    /// The secret less one trailing "\n", or itself when it has none.
    var withoutTrailingNewline: SecretBytes {
        withUnsafeBytes { bytes in
            bytes.last == 0x0A ? SecretBytes(UnsafeRawBufferPointer(rebasing: bytes.dropLast())) : self
        }
    }

    /// Whether the secret is one line followed by a newline, as `echo` writes it.
    var isOneLineEndingInNewline: Bool {
        withUnsafeBytes { bytes in bytes.count > 1 && bytes.last == 0x0A && bytes.firstIndex(of: 0x0A) == bytes.count - 1 }
    }
}
