import VaultCrypto

#if canImport(Glibc)
import Glibc
#endif

/// Which machine this is, for the device check of `…-this-device-only` items
/// in the keyring: a digest of the systemd/D-Bus machine id, never the id itself.
enum MachineIdentity {
    /// The hex digest of this machine's id, nil where there is none.
    static func digest() -> String? {
        for path in ["/etc/machine-id", "/var/lib/dbus/machine-id"] {
            guard let file = fopen(path, "r") else { continue }
            defer { fclose(file) }
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = fread(&buffer, 1, buffer.count, file)
            let id = buffer[0..<count].filter { $0 > 0x20 }
            guard !id.isEmpty else { continue }
            let digest = SHA256.hash(Array("vault machine ".utf8) + id)
            return digest.prefix(16).map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        }
        return nil
    }
}
