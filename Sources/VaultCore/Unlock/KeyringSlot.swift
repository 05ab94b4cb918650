import VaultCrypto

#if canImport(Glibc)
import Glibc
#endif

/// The desktop-keyring keyslot: a random key kept in the desktop keyring opens
/// the vault, so a logged-in desktop needs no passphrase. VaultCore only holds
/// the slot; the command line talks to the keyring. What is read of it without a key.
enum KeyringSlot {
    /// The vault id in hex: what names this vault's key in the desktop keyring.
    static func vaultIdentifier(at location: VaultLocation) throws -> String {
        let id = VaultFile.peekVaultID(
            try FileSystem.readVaultFile(
                location.path, directory: location.directory,
                missing: .noSuchVault(path: location.path)))
        guard !id.isEmpty else { throw VaultError.corrupted(path: location.path, detail: .violates(.fileTooShort)) }
        return hex(id)
    }

    /// Whether the vault has a desktop-keyring keyslot, read from the start of
    /// the file without any key (false when it cannot be read).
    static func isPresent(at location: VaultLocation) -> Bool {
        keyslotKinds(inHeaderOf: location.path).contains(Keyslot.Kind.desktopKeyring.rawValue)
    }

    /// The kind bytes of the keyslots, from the first bytes of the file only
    /// (keyslots come early in the header): cheap enough for every command.
    private static func keyslotKinds(inHeaderOf path: String) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var prefix = [UInt8](repeating: 0, count: 4096)
        let count = prefix.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        guard count > 0 else { return [] }
        var reader = ByteReader(Array(prefix[0..<count]))
        var kinds: [UInt8] = []
        do {
            _ = try reader.raw(VaultFile.magic.count)
            let version = try reader.u16()
            _ = try reader.raw(VaultFile.idSize + VaultFile.countersAndWriteIDSize(version: version) + VaultFile.checkSize)
            if version == 1 { _ = try reader.lengthPrefixed(limit: VaultFile.wrappedKeySize) }
            for _ in 0..<Int(try reader.u8()) {
                kinds.append(try reader.u8())
                _ = try reader.raw(Keyslot.saltSize + 9 + VaultFile.checkSize + VaultFile.wrappedKeySize)
            }
        } catch {
            return kinds
        }
        return kinds
    }
}
