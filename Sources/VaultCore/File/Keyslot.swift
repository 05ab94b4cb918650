import VaultCrypto

/// One way to unlock a vault: a key-encryption key derived from a passphrase
/// (scrypt), a key file or a desktop keyring's key (HKDF) wraps the master key. A check value tells a
/// wrong credential (exit 51) from a damaged slot (exit 93).
struct Keyslot: Equatable {
    enum Kind: UInt8 {
        case passphrase = 1
        case keyFile = 2
        /// A random key kept in the desktop keyring (`vault passwd --add-keyring-slot`).
        case desktopKeyring = 3
    }

    static let saltSize = 16
    /// Key files shorter than this are refused: they would be guessable.
    static let minimumKeyFileBytes = 32
    static let maximumKeyFileBytes = 64 * 1024

    var kind: Kind
    var salt: [UInt8]
    /// scrypt cost for passphrase slots; all zero for the others.
    var kdf: Scrypt.Parameters
    var check: [UInt8]
    var wrappedMasterKey: [UInt8]

    func encode(into w: inout ByteWriter) {
        w.raw(describingBytes)
        w.raw(wrappedMasterKey)
    }

    /// Everything but the wrapped key: the AAD the wrapped key is bound to (`Keyslot+Sealing`).
    var describingBytes: [UInt8] {
        var w = ByteWriter(capacity: 48)
        w.u8(kind.rawValue)
        w.raw(salt)
        w.u8(kdf.logN)
        w.u32(kdf.r)
        w.u32(kdf.p)
        w.raw(check)
        return w.bytes
    }

    static func decode(from r: inout ByteReader) throws -> Keyslot {
        guard let kind = Kind(rawValue: try r.u8()) else { throw MalformedInput(.violates(.unknownKeyslotKind)) }
        let salt = Array(try r.raw(saltSize))
        let kdf = Scrypt.Parameters(logN: try r.u8(), r: try r.u32(), p: try r.u32())
        let check = Array(try r.raw(VaultFile.checkSize))
        let wrapped = Array(try r.raw(VaultFile.wrappedKeySize))
        if kind == .passphrase {
            do { try kdf.validate() } catch { throw MalformedInput(.violates(.scryptParametersOutOfBounds)) }
        }
        return Keyslot(kind: kind, salt: salt, kdf: kdf, check: check, wrappedMasterKey: wrapped)
    }
}
