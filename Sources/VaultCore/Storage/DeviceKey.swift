import VaultCrypto

/// This machine's device key: 32 random bytes in a 0600 file beside the
/// vault, never written into the vault file and never exported.
enum DeviceKey {
    static let size = 32

    /// The device key at `path`, or nil when this machine has none yet.
    static func load(at path: String) throws -> SecretBytes? {
        guard FileSystem.exists(path) else { return nil }
        let bytes = try FileSystem.read(path, requirePrivate: true, missing: .io(path: path, operation: "open", errno: 2))
        guard bytes.count == size else { throw VaultError.corrupted(path: path, detail: "a device key of \(bytes.count) bytes") }
        return SecretBytes(bytes)
    }

    /// The device key at `path`, made first if it is missing.
    static func loadOrCreate(at path: String) throws -> SecretBytes {
        if let key = try load(at: path) { return key }
        let key = SecureRandom.bytes(size)
        try FileSystem.createExclusive(key, at: path)
        return SecretBytes(key)
    }
}
