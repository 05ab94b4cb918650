import Testing
import VaultCrypto

@Suite("HKDF-SHA256")
struct HKDFTests {
    @Test("RFC 5869 test cases 1–3", arguments: try Vectors.load("hkdf-sha256-rfc5869.txt"))
    func knownAnswer(_ v: Vector) throws {
        let okm = try HKDF.deriveKey(
            inputKeyMaterial: SecretBytes(v.bytes("IKM")), salt: v.bytes("salt"),
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

    @Test("HKDFExpander gives the first 32 bytes of the RFC 5869 outputs", arguments: try Vectors.load("hkdf-sha256-rfc5869.txt"))
    func expanderKnownAnswer(_ v: Vector) throws {
        let expander = try HKDFExpander(inputKeyMaterial: SecretBytes(v.bytes("IKM")), salt: v.bytes("salt"))
        #expect(hexString(expander.deriveKey(info: v.bytes("info")).copyBytes()) == hexString(Array(v.bytes("OKM").prefix(32))))
    }

    @Test("HKDFExpander and HKDF.deriveKey equal RFC 5869 written out over HMAC, on random key material, salt, info and lengths")
    func expanderMatchesReference() throws {
        for _ in 0..<100 {
            let ikm = SecretBytes(random: Int.random(in: 0...96))
            let salt = randomBytes(Int.random(in: 0...40))
            let expander = try HKDFExpander(inputKeyMaterial: ikm, salt: salt)
            for _ in 0..<4 {
                let info = randomBytes(Int.random(in: 0...80))
                let length = Int.random(in: 1...200)
                let reference = Self.rfc5869(ikm: ikm.copyBytes(), salt: salt, info: info, length: length)
                #expect(
                    expander.deriveKey(info: info).copyBytes()
                        == Array(Self.rfc5869(ikm: ikm.copyBytes(), salt: salt, info: info, length: 32)))
                #expect(
                    try HKDF.deriveKey(inputKeyMaterial: ikm, salt: salt, info: info, length: length).copyBytes() == reference,
                    "ikm \(ikm.count), salt \(salt.count), info \(info.count) bytes, length \(length)")
            }
        }
    }

    /// RFC 5869 §2.2–2.3 as written: PRK = HMAC(salt, IKM); T(i) = HMAC(PRK, T(i-1) ‖ info ‖ i).
    private static func rfc5869(ikm: [UInt8], salt: [UInt8], info: [UInt8], length: Int) -> [UInt8] {
        let prk = SecretBytes(HMAC.sha256(key: SecretBytes(salt), data: ikm))
        var output: [UInt8] = [], previous: [UInt8] = []
        var counter: UInt8 = 1
        while output.count < length {
            previous = HMAC.sha256(key: prk, data: previous + info + [counter])
            output += previous
            counter += 1
        }
        return Array(output.prefix(length))
    }

    private func randomBytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255) }
    }

    @Test("different info gives independent keys")
    func info() throws {
        let ikm = SecretBytes(random: 32)
        let a = try HKDF.deriveKey(inputKeyMaterial: ikm, salt: [], info: Array("vault enc".utf8))
        let b = try HKDF.deriveKey(inputKeyMaterial: ikm, salt: [], info: Array("vault mac".utf8))
        #expect(!a.constantTimeEquals(b))
    }
}
