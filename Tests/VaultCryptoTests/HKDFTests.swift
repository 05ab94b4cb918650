import Testing
import VaultCrypto

@Suite("HKDF-SHA256")
struct HKDFTests {
    @Test("RFC 5869 test cases 1–3", arguments: try Vectors.load("hkdf-sha256-rfc5869.txt"))
    func knownAnswer(_ v: Vector) throws {
        let okm = try HKDF.deriveKey(inputKeyMaterial: SecretBytes(v.bytes("IKM")), salt: v.bytes("salt"),
                                     info: v.bytes("info"), length: v.int("L"))
        #expect(hexString(okm.copyBytes()) == hexString(v.bytes("OKM")))
    }

    @Test("length defaults to 32, runs up to 255 blocks, and is refused outside 1...8160")
    func lengths() throws {
        let ikm = SecretBytes(random: 32)
        #expect(try HKDF.deriveKey(inputKeyMaterial: ikm, salt: [], info: []).count == 32)
        let longest = try HKDF.deriveKey(inputKeyMaterial: ikm, salt: [1], info: [2], length: 8160)
        #expect(longest.count == 8160)
        // Expansion is a prefix property: a shorter output is the start of a longer one.
        let short = try HKDF.deriveKey(inputKeyMaterial: ikm, salt: [1], info: [2], length: 40)
        #expect(Array(longest.copyBytes().prefix(40)) == short.copyBytes())
        for bad in [0, -1, 8161] {
            let error = #expect(throws: CryptoError.self) {
                try HKDF.deriveKey(inputKeyMaterial: ikm, salt: [], info: [], length: bad)
            }
            #expect(error?.isInvalidParameters == true, "length \(bad)")
        }
    }

    @Test("different info gives independent keys")
    func info() throws {
        let ikm = SecretBytes(random: 32)
        let a = try HKDF.deriveKey(inputKeyMaterial: ikm, salt: [], info: Array("vault enc".utf8))
        let b = try HKDF.deriveKey(inputKeyMaterial: ikm, salt: [], info: Array("vault mac".utf8))
        #expect(!a.constantTimeEquals(b))
    }
}
