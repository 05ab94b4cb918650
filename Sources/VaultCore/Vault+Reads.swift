import FoundationEssentials
import VaultCrypto

// The façade's reads: each checks the scope, reads a snapshot with the keys at hand and asks its
// room's operation about it (`withKeys`, `readSnapshot`).
extension Vault {
    /// The bytes of a side of a merge that git gave as a file (`%O`, `%B`): a temporary file git
    /// made, so not held to the vault file's permission checks. Throws `noSuchFile` when missing.
    public static func readMergeSide(at path: String) throws -> [UInt8] {
        try FileSystem.read(path, kind: .mergeSide, requirePrivate: false)
    }
}
