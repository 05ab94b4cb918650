/// Every key of the config file (`Config`), the one place each is spelled: an option names its own
/// (`OptionSpec.configKey`), and code reads the config by these cases only, never by a string
/// outside Settings/ (`CLIEdgeRuleTests`); docs/CLI.md lists them too.
public enum ConfigKey: String, CaseIterable, Sendable {
    /// The access group of commands that name none (like VAULT_GROUP).
    case group
    /// Where items live: file or secret-service (like VAULT_BACKEND).
    case backend
    /// The idle timeout of `vault unlock` sessions, e.g. 15m (like --timeout).
    case sessionTimeout = "session-timeout"
    /// A marker file: when it is missing, the first command that opens the vault wipes first (like `vault first-run`).
    case firstRunMarker = "first-run-marker"
    /// The lowest key epoch of a vault file accepted, against rollback (like VAULT_MIN_EPOCH).
    case minEpoch = "min-epoch"
    /// The groups that first-run-marker wipes, separated by commas; the whole vault when unset.
    case firstRunGroups = "first-run-groups"
    /// An age identity file (like --identity).
    case identity
    /// How many days a deleted item stays in the trash before a write purges it (30 when unset; 0 keeps it until the next write).
    case trashDays = "trash-days"
    /// Yes to name the groups and items a `vault sync` commit changed in its message; by default it counts them by group id, since names are sealed in the file.
    case syncCommitNames = "sync-commit-names"
    /// The trust fingerprint a vault's header must be signed under, from `vault trust` (like VAULT_TRUST).
    case trust
    /// True keeps unlock sessions out of the login's kernel keyring (like --no-keyring).
    case noKeyring = "no-keyring"
    /// The TPM that seals device keys: a TCTI string such as device:/dev/tpmrm0, or off (like VAULT_TPM).
    case tpm
    /// The vault group `vault secret-service serve` serves as the desktop's login collection (desktop when unset).
    case secretServiceGroup = "secret-service-group"
    /// The seconds `vault secret-service serve` waits with no client before it exits (60 when unset).
    case secretServiceIdle = "secret-service-idle"
    /// A program (systemd-ask-password) `vault secret-service serve` asks the passphrase through when a program asks it to unlock; it prints the passphrase.
    case secretServicePrompt = "secret-service-prompt"
    /// The PCRs (sha256 bank) a device key's TPM seal binds to, separated by commas; 7 when unset.
    case tpmPCRs = "tpm-pcrs"

    /// The key as the config file spells it.
    public var name: String { rawValue }
}
