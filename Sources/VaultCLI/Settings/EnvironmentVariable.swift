#if canImport(Glibc)
import Glibc
#endif

/// Every environment variable vault reads, or sets for a program it runs, by name: the one place
/// a name is spelled. The command table describes vault's own (`CommandTable.environment`, the man
/// page's ENVIRONMENT section) and an option names its own (`OptionSpec.environment`); code reads
/// the environment by these cases only, and outside Settings/ never by a string
/// (`CLIEdgeRuleTests`).
public enum EnvironmentVariable: String, CaseIterable, Sendable {
    case vaultPath = "VAULT_PATH"
    case vaultPassphraseFile = "VAULT_PASSPHRASE_FILE"
    case vaultKeyFile = "VAULT_KEY_FILE"
    case vaultSession = "VAULT_SESSION"
    case vaultCredential = "VAULT_CREDENTIAL"
    case vaultIdentity = "VAULT_IDENTITY"
    case vaultGroup = "VAULT_GROUP"
    case vaultTrust = "VAULT_TRUST"
    case vaultMinEpoch = "VAULT_MIN_EPOCH"
    case vaultNoInteraction = "VAULT_NO_INTERACTION"
    case vaultNoKeyring = "VAULT_NO_KEYRING"
    case vaultTPM = "VAULT_TPM"
    case vaultTPMPINFile = "VAULT_TPM_PIN_FILE"
    case vaultBackend = "VAULT_BACKEND"
    case vaultCollection = "VAULT_COLLECTION"
    case baoAddress = "BAO_ADDR"
    case baoToken = "BAO_TOKEN"
    case baoCACert = "BAO_CACERT"
    case baoCAPath = "BAO_CAPATH"
    case baoNamespace = "BAO_NAMESPACE"
    case baoKV1Mounts = "BAO_KV1_MOUNTS"
    case baoClientTimeout = "BAO_CLIENT_TIMEOUT"
    case baoAppRoleRoleID = "BAO_APPROLE_ROLE_ID"
    case baoAppRoleSecretIDFile = "BAO_APPROLE_SECRET_ID_FILE"
    case baoAppRoleSecretID = "BAO_APPROLE_SECRET_ID"
    case baoAppRoleSecretIDWrapped = "BAO_APPROLE_SECRET_ID_WRAPPED"
    case baoAppRoleMount = "BAO_APPROLE_MOUNT"
    case httpsProxy = "https_proxy"
    case vaultMountPath = "VAULT_MOUNT_PATH"
    case kubernetesExecInfo = "KUBERNETES_EXEC_INFO"
    case ci = "CI"
    case githubEnv = "GITHUB_ENV"
    case xdgConfigHome = "XDG_CONFIG_HOME"
    case xdgDataHome = "XDG_DATA_HOME"
    case xdgRuntimeDir = "XDG_RUNTIME_DIR"
    case xdgStateHome = "XDG_STATE_HOME"
    case noColor = "NO_COLOR"
    case vaultTestNow = "VAULT_TEST_NOW"
    case vaultLibsecretPath = "VAULT_LIBSECRET_PATH"
    case vaultTSS2ESYSPath = "VAULT_TSS2_ESYS_PATH"
    case vaultProgressImmediate = "VAULT_PROGRESS_IMMEDIATE"
    case vaultTestShutdownPauseMS = "VAULT_TEST_SHUTDOWN_PAUSE_MS"

    // The system's and other programs' variables: read or set as those programs define them, and
    // so not described in the man page (`undescribed`).
    case httpsProxyUpper = "HTTPS_PROXY"
    case noProxy = "no_proxy"
    case noProxyUpper = "NO_PROXY"
    case home = "HOME"
    case path = "PATH"
    case workingDirectory = "PWD"
    case temporaryDirectory = "TMPDIR"
    case display = "DISPLAY"
    case waylandDisplay = "WAYLAND_DISPLAY"
    case visual = "VISUAL"
    case editor = "EDITOR"
    case passwordStoreDir = "PASSWORD_STORE_DIR"
    case localeAll = "LC_ALL"
    case language = "LANGUAGE"
    case gitEditor = "GIT_EDITOR"
    case gitIndexFile = "GIT_INDEX_FILE"

    /// The variable's name, as the environment spells it.
    public var name: String { rawValue }

    /// The value of this variable in vault's own environment, for code that has no `Invocation`.
    var valueOfThisProcess: String? { getenv(rawValue).map { String(cString: $0) } }

    /// The variables whose meaning another program or the system defines, which the man page does
    /// not describe; every other case is described once in `CommandTable.environment`.
    public static let undescribed: Set<EnvironmentVariable> = [
        .httpsProxyUpper, .noProxy, .noProxyUpper, .home, .path, .workingDirectory, .temporaryDirectory, .display,
        .waylandDisplay, .visual, .editor, .passwordStoreDir, .localeAll, .language, .gitEditor, .gitIndexFile
    ]
}

extension Dictionary where Key == String, Value == String {
    /// The value of `variable` in this environment, or nil when unset (an empty value is returned as it is).
    subscript(_ variable: EnvironmentVariable) -> String? {
        get { self[variable.rawValue] }
        set { self[variable.rawValue] = newValue }
    }
}
