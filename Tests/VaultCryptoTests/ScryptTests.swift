import Testing
import VaultCrypto

@Suite("scrypt")
struct ScryptTests {
    @Test("RFC 7914 section 12 vectors", arguments: try Vectors.load("scrypt-rfc7914.txt"))
    func knownAnswer(_ v: Vector) throws {
        let n = v.int("N")
        let logN = UInt8(n.trailingZeroBitCount)
        #expect(1 << Int(logN) == n)
        let parameters = Scrypt.Parameters(logN: logN, r: UInt32(v.int("r")), p: UInt32(v.int("p")))
        // Every RFC parameter set, including p = 16 and the 1 GiB one, must be accepted.
        try parameters.validate()
        if v["Skip"] != nil { return }

        let key = try Scrypt.deriveKey(
            passphrase: SecretBytes(v.bytes("P")), salt: v.bytes("S"),
            parameters: parameters, length: v.int("dkLen"))
        #expect(hexString(key.copyBytes()) == hexString(v.bytes("DK")))
    }

    @Test("the named parameter sets validate")
    func namedParameters() throws {
        try Scrypt.Parameters.interactive.validate()
        try Scrypt.Parameters.testing.validate()
        #expect(Scrypt.Parameters.interactive == Scrypt.Parameters(logN: 17, r: 8, p: 1))
        #expect(Scrypt.Parameters.testing == Scrypt.Parameters(logN: 10, r: 8, p: 1))
    }

    @Test(
        "hostile parameters are refused before any work",
        arguments: [
            Scrypt.Parameters(logN: 0, r: 8, p: 1),
            Scrypt.Parameters(logN: 21, r: 8, p: 1),
            Scrypt.Parameters(logN: 255, r: 8, p: 1),
            Scrypt.Parameters(logN: 10, r: 0, p: 1),
            Scrypt.Parameters(logN: 10, r: 33, p: 1),
            Scrypt.Parameters(logN: 10, r: 8, p: 0),
            Scrypt.Parameters(logN: 10, r: 8, p: 17),
            Scrypt.Parameters(logN: 20, r: 9, p: 1),  // 1.125 GiB
            Scrypt.Parameters(logN: 20, r: 8, p: 2),  // 2 GiB by 128·r·N·p
            Scrypt.Parameters(logN: 20, r: 32, p: 16),  // 64 GiB
            Scrypt.Parameters(logN: 16, r: 1, p: 1)  // N ≥ 2^(16·r), forbidden by RFC 7914
        ])
    func hostile(_ parameters: Scrypt.Parameters) {
        let validateError = #expect(throws: CryptoError.self) { try parameters.validate() }
        #expect(validateError?.isInvalidParameters == true)
        let deriveError = #expect(throws: CryptoError.self) {
            try Scrypt.deriveKey(passphrase: SecretBytes([1]), salt: [2], parameters: parameters)
        }
        #expect(deriveError?.isInvalidParameters == true)
    }

    @Test("the limits themselves are accepted")
    func edges() throws {
        try Scrypt.Parameters(logN: 1, r: 1, p: 1).validate()
        try Scrypt.Parameters(logN: 15, r: 1, p: 1).validate()  // largest N that r = 1 allows
        try Scrypt.Parameters(logN: 20, r: 8, p: 1).validate()  // exactly 1 GiB
        try Scrypt.Parameters(logN: 10, r: 32, p: 16).validate()  // r and p at their maxima, 64 MiB
    }

    @Test("output length defaults to 32 and must be positive")
    func length() throws {
        let key = try Scrypt.deriveKey(passphrase: SecretBytes(Array("pw".utf8)), salt: [1, 2, 3], parameters: .testing)
        #expect(key.count == 32)
        let error = #expect(throws: CryptoError.self) {
            try Scrypt.deriveKey(passphrase: SecretBytes([1]), salt: [], parameters: .testing, length: 0)
        }
        #expect(error?.isInvalidParameters == true)
    }

    @Test("salt and passphrase both change the key")
    func inputsMatter() throws {
        let pass = SecretBytes(Array("correct horse".utf8))
        let a = try Scrypt.deriveKey(passphrase: pass, salt: [1], parameters: .testing)
        let b = try Scrypt.deriveKey(passphrase: pass, salt: [2], parameters: .testing)
        let c = try Scrypt.deriveKey(passphrase: SecretBytes(Array("correct horsf".utf8)), salt: [1], parameters: .testing)
        let again = try Scrypt.deriveKey(passphrase: pass, salt: [1], parameters: .testing)
        #expect(!a.constantTimeEquals(b))
        #expect(!a.constantTimeEquals(c))
        #expect(a.constantTimeEquals(again))
    }
}
