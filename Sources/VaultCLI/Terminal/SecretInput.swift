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

    init(_ invocation: Invocation) {
        self.invocation = invocation
    }

    private var arguments: ParsedArguments { invocation.arguments }

    /// Whether the options name a source other than stdin or the prompt.
    var hasExplicitSource: Bool {
        arguments.value(.secretFile) != nil || arguments.flag(.generate) || arguments.value(.password) != nil
    }

    /// Reads the new secret, refusing two sources at once and an empty secret
    /// unless --allow-empty; --trim-newline drops one trailing newline first.
    func read(access: VaultAccess) throws -> SecretBytes {
        var secret = try readSource(access: access)
        if arguments.flag(.trimNewline) {
            secret = secret.withoutTrailingNewline
        } else if fromPipe, secret.isOneLineEndingInNewline {
            invocation.terminal.writeErr("vault: warning: the secret read from the pipe ends in a newline, which is stored as part of it (echo adds one)\n")
            invocation.terminal.writeErr("vault: hint: add --trim-newline to drop it, or pipe with printf %s\n")
        }
        if secret.count == 0, !arguments.flag(.allowEmpty) {
            throw UsageError("the secret is empty; nothing was stored",
                             hint: "give a non-empty secret (is the variable you piped unset?), or add --allow-empty to store an empty one")
        }
        return secret
    }

    /// Whether the secret comes from stdin and stdin is a pipe.
    private var fromPipe: Bool { !hasExplicitSource && invocation.terminal.stdinIsPipe }

    private func readSource(access: VaultAccess) throws -> SecretBytes {
        let sources = arguments.given([.secretFile, .generate, .password])
        guard sources.count <= 1 else {
            throw UsageError("--\(sources[0].long) and --\(sources[1].long) both give the secret", hint: "give the secret one way only")
        }
        if !arguments.flag(.generate), let ruleOption = arguments.given(GeneratorOptions.ruleOptions).first {
            throw UsageError("--\(ruleOption.long) goes with --generate", hint: "add --generate, or drop --\(ruleOption.long)")
        }
        if let path = arguments.value(.secretFile) { return try readFile(path) }
        if arguments.flag(.generate) { return try GeneratorOptions(arguments: arguments).rule().generate() }
        if let value = arguments.value(.password) {
            invocation.terminal.writeErr("vault: warning: a secret given with -w is visible to other users in the process list; prefer stdin or --secret-file\n")
            return SecretBytes(Array(value.utf8))
        }
        if !invocation.terminal.stdinIsTTY {
            let (secret, total) = SecretStream.readCounting(STDIN_FILENO, limit: ItemLimits.maxSecretBytes)
            try Vault.validateSecretSize(total)
            return secret
        }
        if let reason = access.reasonPromptsAreOff { throw CommandFailure.interactionNotAllowed(reason: reason) }
        guard let first = try invocation.terminal.readHidden(prompt: "Secret: "),
              let second = try invocation.terminal.readHidden(prompt: "Secret (again): ") else {
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
