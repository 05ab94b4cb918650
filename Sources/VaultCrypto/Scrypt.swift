internal import COpenSSL

/// The scrypt password-based key derivation function (RFC 7914).
public enum Scrypt {
    /// scrypt cost parameters: N = 2^logN, block size r, parallelism p.
    public struct Parameters: Equatable, Sendable {
        /// log2 of the CPU/memory cost N.
        public var logN: UInt8
        /// Block size factor r.
        public var r: UInt32
        /// Parallelisation factor p.
        public var p: UInt32

        /// Makes a parameter set; it is checked only by `validate()`. Never throws.
        public init(logN: UInt8, r: UInt32, p: UInt32) {
            self.logN = logN
            self.r = r
            self.p = p
        }

        /// N = 2^17, r = 8, p = 1: the OWASP default, about 128 MiB.
        public static let interactive = Parameters(logN: 17, r: 8, p: 1)
        /// N = 2^10, r = 8, p = 1: cheap, for tests only.
        package static let testing = Parameters(logN: 10, r: 8, p: 1)

        /// The largest memory cost `validate()` accepts.
        static let memoryLimit: UInt64 = 1 << 30

        /// 128·r·N·p bytes, the memory figure `validate()` bounds.
        var memoryCost: UInt64 { 128 * UInt64(r) * (UInt64(1) << UInt64(logN)) * UInt64(p) }

        /// Throws invalidParameters if logN < 1 or > 20, r == 0 or r > 32, p == 0 or p > 16, or memory (128*r*N*p) > 1 GiB: a hostile file must not force a huge KDF.
        /// Also throws if N ≥ 2^(16·r), which RFC 7914 forbids (only reachable with r = 1 and logN ≥ 16).
        package func validate() throws {
            guard (1...20).contains(logN) else {
                throw CryptoError.invalidParameters("scrypt logN must be 1...20, got \(logN)")
            }
            guard (1...32).contains(r) else {
                throw CryptoError.invalidParameters("scrypt r must be 1...32, got \(r)")
            }
            guard (1...16).contains(p) else {
                throw CryptoError.invalidParameters("scrypt p must be 1...16, got \(p)")
            }
            guard UInt64(logN) < 16 * UInt64(r) else {
                throw CryptoError.invalidParameters("scrypt N must be less than 2^(16·r)")
            }
            guard memoryCost <= Self.memoryLimit else {
                throw CryptoError.invalidParameters("scrypt parameters need \(memoryCost) bytes, more than 1 GiB")
            }
        }
    }

    /// Derives `length` bytes from `passphrase` and `salt` with EVP_PBE_scrypt.
    /// Throws `CryptoError.invalidParameters` if the parameters fail `validate()` or `length` is not
    /// 1...1024, `CryptoError.openSSL` if OpenSSL fails (for example when memory runs out).
    package static func deriveKey(
        passphrase: SecretBytes, salt: [UInt8], parameters: Parameters,
        length: Int = 32
    ) throws -> SecretBytes {
        try parameters.validate()
        guard (1...1024).contains(length) else {
            throw CryptoError.invalidParameters("scrypt output length must be 1...1024, got \(length)")
        }
        let n = UInt64(1) << UInt64(parameters.logN)
        let r = UInt64(parameters.r)
        let p = UInt64(parameters.p)
        // OpenSSL refuses when B (128·r·p) plus V, X, T (128·r·(N+2)) exceed maxmem,
        // whose default is 32 MiB; allow what these validated parameters need, plus slack.
        let maxmem = 128 * r * p + 128 * r * (n + 2) + (1 << 20)

        let key = SecretBytes(count: length)
        // Empty salt must still be a valid pointer, so copy into a buffer with a spare byte.
        let saltBuffer = salt + [0]
        try passphrase.withUnsafeBytes { pass in
            try saltBuffer.withUnsafeBufferPointer { s in
                try key.withUnsafeMutableBytes { out in
                    try check(
                        EVP_PBE_scrypt(
                            pass.baseAddress!.assumingMemoryBound(to: CChar.self), pass.count,
                            s.baseAddress, salt.count,
                            n, r, p, maxmem,
                            out.baseAddress!.assumingMemoryBound(to: UInt8.self), out.count),
                        "EVP_PBE_scrypt")
                }
            }
        }
        return key
    }
}
