import VaultCore
import VaultCrypto

/// `vault init`'s options.
struct InitArguments: CommandArguments {
    static let options = [KDFCost.option]

    /// --kdf-cost: the scrypt cost of the passphrase keyslot.
    var kdf: Scrypt.Parameters

    init(_ options: OptionReader) throws {
        kdf = try KDFCost.parse(options.value(KDFCost.option))
    }
}

/// `vault init`: creates a vault with a passphrase or a key-file keyslot.
enum InitCommand {
    static func run(_ arguments: InitArguments, _ invocation: Invocation) throws {
        let access = VaultAccess(invocation)
        try access.requireFileBackend()
        let location = access.location
        guard try !location.exists else { throw VaultError.vaultExists(path: location.path) }
        let kdf = arguments.kdf
        let credential: UnlockSecret
        var createdKeyFile = false
        if let path = access.keyFilePath {
            createdKeyFile = !KeyFile.exists(path: path)
            credential = .keyFile(createdKeyFile ? try KeyFile.create(path: path) : try KeyFile.read(path: path))
        } else {
            credential = .passphrase(try access.newPassphrase(fromFile: access.passphraseFilePath, purpose: "New passphrase"))
        }
        var host = try access.host()
        let tpm = try TPMSettings(invocation)
        let terminal = invocation.terminal
        if tpm.foundButNotOpenable {
            // A TPM found but closed to this user is no reason to refuse a vault: its device key stays a file, and the user is told.
            host.tpm = nil
            terminal.diagnostics.warning(
                "the device key is not sealed by the TPM: this user may not open \(TPMSettings.kernelDevice); join the tss group, then run 'vault device-key --tpm'"
            )
        }
        // The new vault is unlocked for this login at once, so the next commands need no passphrase;
        // where the keyring cannot keep the session, init says nothing of it: unlock will.
        let timeout = Vault.defaultSessionTimeout
        let keyringProblem = try Vault.create(
            at: location, credential: credential, kdf: kdf, host: host,
            loginSessionTimeout: access.usesLoginKeyring ? timeout : nil)
        if host.tpm != nil {
            terminal.say("sealed this machine's device key by the TPM (PCR \(tpm.pcrs.map(String.init).joined(separator: ", ")))")
        }
        if let path = access.keyFilePath {
            if createdKeyFile { terminal.say("created key file \(quoted(path)) (mode 600); keep it safe: it opens the vault") }
            terminal.say("created vault \(quoted(location.path)), unlocked by the key file \(quoted(path))")
        } else {
            terminal.say("created vault \(quoted(location.path)), unlocked by a passphrase")
        }
        if access.usesLoginKeyring, keyringProblem == nil { terminal.say(LoginKeyringText.unlocked(timeout: timeout)) }
        // Typed passphrases only: a key file or passphrase file named in the environment asks for nothing.
        if let keyringProblem, access.keyFilePath == nil, access.passphraseFilePath == nil {
            terminal.diagnostics.notice(LoginKeyringText.noSessionAfterInit(keyringProblem))
        }
    }
}

/// `--kdf-cost`: the scrypt cost of a new passphrase keyslot.
enum KDFCost {
    static let option = OptionSpec(
        "kdf-cost", value: "COST",
        help: "scrypt cost of the passphrase keyslot; testing is for tests only: it lowers the scrypt cost",
        default: "interactive", completion: .values(["interactive", "testing"]))

    static func parse(_ value: String?) throws -> Scrypt.Parameters {
        switch value {
        case nil, "interactive": return .interactive
        case "testing": return .testing
        case let other?:
            throw UsageError("unknown --kdf-cost \(quoted(other))", hint: "use \"interactive\" (the default) or \"testing\" (tests only)")
        }
    }
}
