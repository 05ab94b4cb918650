/// The options accepted before or after any command name, each declared once: the table lists
/// them (`CommandTable.globalOptions`), and `Settings` and the parser read them by these values.
enum GlobalOptions {
    static let vault = OptionSpec(
        "vault", value: "PATH",
        help: "vault file to use",
        default: "~/.local/share/vault/default.vault", completion: .file, environment: .vaultPath)
    static let passphraseFile = OptionSpec(
        "passphrase-file", value: "FILE",
        help: "read the passphrase from FILE, less one trailing newline, instead of prompting",
        completion: .file, environment: .vaultPassphraseFile)
    static let keyFile = OptionSpec(
        "key-file", value: "FILE",
        help: "unlock with the key file FILE instead of a passphrase",
        completion: .file, environment: .vaultKeyFile)
    static let credential = OptionSpec(
        "credential", value: "FILE",
        help:
            "use the scoped credential in FILE, made by 'vault grant' (the environment variable may hold a path, the credential itself or its base64)",
        completion: .file, environment: .vaultCredential)
    static let identity = OptionSpec(
        "identity", value: "FILE",
        help:
            "unlock as a member with the age identity in FILE (its text only in the environment variable); identity show prints its recipient",
        completion: .file, environment: .vaultIdentity, configKey: .identity)
    static let trust = OptionSpec(
        "trust", value: "FINGERPRINT",
        help:
            "with --identity, read the vault only if its header is signed by the key with this trust fingerprint, printed by 'vault trust' (needed there; other unlocks ignore it)",
        environment: .vaultTrust, configKey: .trust)
    static let backend = OptionSpec(
        "backend", value: "BACKEND",
        help: "where items live: file, the vault file, or secret-service, the desktop keyring through libsecret",
        default: "file", completion: .values(["file", "secret-service"]), environment: .vaultBackend, configKey: .backend)
    static let collection = OptionSpec(
        "collection", value: "COLLECTION",
        help: "keyring collection of the secret-service backend: default, session (in memory until logout) or a collection's name",
        default: "default", environment: .vaultCollection)
    static let acceptRollback = OptionSpec(
        "accept-rollback",
        help: "open a vault file older than this machine has seen (a restore from a backup, say), and remember it as seen")
    static let acceptLog = OptionSpec(
        "accept-log",
        help:
            "as the owner, sign unasked the team log entries a write did not make here: the other branch when a merge joins two, the members of a file converted to the team log (those not as this machine last wrote them only when named with --accept-member)"
    )
    static let acceptMember = OptionSpec(
        "accept-member", value: "NAME",
        help:
            "with --accept-log, sign also this member of a file converted to the team log, which differs from the roster this machine last wrote (repeat it, or NAME,NAME)",
        repeatable: true)
    static let minEpoch = OptionSpec(
        "min-epoch", value: "N",
        help:
            "refuse a vault file whose key epoch is below N: a rollback guard for machines that remember nothing, such as fresh CI runners",
        environment: .vaultMinEpoch, configKey: .minEpoch)
    static let noInteraction = OptionSpec(
        "no-interaction",
        help: "never prompt; fail with exit 36 when the vault is locked",
        environment: .vaultNoInteraction)
    static let noKeyring = OptionSpec(
        "no-keyring",
        help:
            "keep unlock sessions out of the login's kernel keyring: unlock and init keep none there, and no command looks there (as under CI)",
        environment: .vaultNoKeyring, configKey: .noKeyring)
    static let quiet = OptionSpec("quiet", short: "q", help: "leave out messages that say what was done; warnings and errors still show")
    static let help = OptionSpec("help", short: "h", help: "show help for vault or for a command")
    static let version = OptionSpec("version", help: "print the version of vault")

    /// In the order help shows them.
    static let all = [
        vault, passphraseFile, keyFile, credential, identity, trust, backend, collection, acceptRollback, acceptLog, acceptMember, minEpoch,
        noInteraction, noKeyring, quiet, help, version
    ]
}
