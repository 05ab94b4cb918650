/// Every label that separates one use of a key from another in the file format (docs/FORMAT.md,
/// "Keys"): the HKDF info of each derived key, the prefix of each MAC and signature input, and the
/// prefix of each hash the team log chains. One list, so a new key cannot reuse a label by
/// accident: Swift refuses two cases with one raw value. (What AES-GCM binds a seal to is `AAD`'s.)
enum KeyLabel: String, CaseIterable {
    // Derived by `KeyRing.derive`: HKDF-SHA256, salt the vault id, info the label ‖ context.
    case headerMAC = "vault v1 header mac"
    case headerMACv2 = "vault v1 header mac v2"
    case keyWrap = "vault v1 key wrap"
    case trustKeyWrap = "vault v1 trust key wrap"
    case lookup = "vault v1 lookup"
    case indexMAC = "vault v1 index mac"
    case indexMACv2 = "vault v1 index mac v2"
    case readMAC = "vault v1 read mac"
    case base = "vault v1 base"
    case record = "vault v1 record"
    case listing = "vault v1 listing"
    case tombstones = "vault v1 tombstones"
    case trash = "vault v1 trash"
    case grantLedger = "vault v1 grant ledger"
    case secretDigest = "vault v1 secret digest"
    case deviceWrap = "vault v1 device wrap"
    case session = "vault v1 session"
    case afterFirstUnlock = "vault v1 after first unlock"
    // The TPM recovery seal of a device key (docs/SECURITY.md, "The TPM"): its auth value, and the check that it is the master key's.
    case tpmRecoveryAuth = "vault v1 tpm recovery auth"
    case tpmRecoveryCheck = "vault v1 tpm recovery check"
    // Keyslot key-encryption keys (HKDF over the unlock secret) and a member slot's wrap key.
    case keyFile = "vault v1 key file"
    case desktopKeyring = "vault v1 desktop keyring"
    case member = "vault v1 member"
    // Prefixes of HMAC inputs: check values and group MACs.
    case keyslotCheck = "vault v1 keyslot check"
    case groupKeyCheck = "vault v1 group key check"
    case deviceCheck = "vault v1 device check"
    case indexGroupMAC = "vault v2 index"
    case readGroupMAC = "vault v2 read"
    // Prefixes of what the trust key and the header signature sign.
    case trustStatementV2 = "vault v2 trust statement"
    case trustStatementV3 = "vault v3 trust statement"
    case headerSignature = "vault v2 header signature"
    // Prefixes of the team log's SHA-256 inputs (docs/FORMAT.md, "Team log"): an entry's hash,
    // a join's salt, a payload's digest.
    case teamLogEntry = "vault team log entry"
    case teamLogJoin = "vault team log join"
    case teamLogPayload = "vault team log payload"
    /// The owner's signature of an accepted exposed value (`vault exposure accept`).
    case exposureAcceptance = "vault v3 exposure acceptance"

    /// The label's bytes (UTF-8), as they enter the HKDF info or the MAC input.
    var bytes: [UInt8] { Array(rawValue.utf8) }
}
