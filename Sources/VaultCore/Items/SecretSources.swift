#if canImport(Glibc)
import Glibc
#endif
import VaultCrypto

/// Reading a secret from a file, exactly as its bytes are.
package enum SecretFile {
    /// The file's bytes; throws `invalidValue` above `limit` bytes.
    package static func read(path: String, limit: Int) throws -> SecretBytes {
        var bytes = try FileSystem.read(path, kind: .secretFile, requirePrivate: false)
        defer { for i in bytes.indices { bytes[i] = 0 } }
        guard bytes.count <= limit else {
            throw VaultError.invalidValue(.secretTooLarge(size: bytes.count, limit: limit))
        }
        return SecretBytes(bytes)
    }
}

/// Another password manager's export, read whole for `vault import --from`.
package enum ExportFile {
    /// The file's bytes, in locked memory (the ordinary copy read is wiped). Throws an
    /// `ImportProblem` (`tooLarge`) for a file over `ImportLimits.maxExportBytes`, before reading it.
    package static func read(path: String) throws -> SecretBytes {
        var info = stat()
        if stat(path, &info) == 0, Int(info.st_size) > ImportLimits.maxExportBytes {
            throw ImportProblem(.named(path), .tooLarge(bytes: Int(info.st_size), limit: ImportLimits.maxExportBytes))
        }
        var bytes = try FileSystem.read(path, kind: .export, requirePrivate: false)
        defer { for i in bytes.indices { bytes[i] = 0 } }
        return SecretBytes(bytes)
    }
}

/// Random secrets drawn uniformly from an alphabet.
package enum RandomSecret {
    /// `length` characters from `alphabet` (at most 256 symbols), by rejection
    /// sampling so every symbol is equally likely.
    package static func generate(length: Int, alphabet: [UInt8]) -> SecretBytes {
        precondition(!alphabet.isEmpty && alphabet.count <= 256)
        let result = SecretBytes(count: length)
        let limit = 256 - 256 % alphabet.count
        result.withUnsafeMutableBytes { out in
            var filled = 0
            while filled < length {
                var pool = SecureRandom.bytes(length * 2)
                for byte in pool where filled < length && Int(byte) < limit {
                    out[filled] = alphabet[Int(byte) % alphabet.count]
                    filled += 1
                }
                for i in pool.indices { pool[i] = 0 }
            }
        }
        return result
    }
}
