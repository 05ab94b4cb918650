import Testing
import VaultCrypto

@Suite("AES-256-GCM")
struct AESGCMTests {
    static let key = SecretBytes(hexBytes("feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308"))

    @Test("McGrew–Viega test cases 13–16 seal and open", arguments: try Vectors.load("aes-256-gcm.txt"))
    func knownAnswer(_ v: Vector) throws {
        let key = SecretBytes(v.bytes("Key"))
        let sealed = try AESGCM.seal(v.bytes("PT"), key: key, nonce: v.bytes("IV"), aad: v.bytes("AAD"))
        #expect(hexString(sealed) == hexString(v.bytes("CT") + v.bytes("Tag")))

        let opened = try AESGCM.open(
            ciphertextAndTag: v.bytes("CT") + v.bytes("Tag"), key: key,
            nonce: v.bytes("IV"), aad: v.bytes("AAD"))
        #expect(opened.copyBytes() == v.bytes("PT"))

        // The same vector in the nonce ‖ ciphertext ‖ tag layout.
        let box = v.bytes("IV") + v.bytes("CT") + v.bytes("Tag")
        #expect(try AESGCM.open(box, key: key, aad: v.bytes("AAD")).copyBytes() == v.bytes("PT"))
    }

    @Test("a changed tag, AAD, key, or a truncated box fails authentication (test case 16)")
    func failures() throws {
        let v = try #require(try Vectors.load("aes-256-gcm.txt").first { $0["Case"] == "16" })
        let key = SecretBytes(v.bytes("Key"))
        let aad = v.bytes("AAD")
        let box = v.bytes("IV") + v.bytes("CT") + v.bytes("Tag")
        #expect(try AESGCM.open(box, key: key, aad: aad).copyBytes() == v.bytes("PT"))

        var wrongTag = box
        wrongTag[wrongTag.count - 1] ^= 0x01
        #expect(throws: CryptoError.authenticationFailed) { try AESGCM.open(wrongTag, key: key, aad: aad) }

        var wrongAAD = aad
        wrongAAD[0] ^= 0x80
        #expect(throws: CryptoError.authenticationFailed) { try AESGCM.open(box, key: key, aad: wrongAAD) }
        #expect(throws: CryptoError.authenticationFailed) { try AESGCM.open(box, key: key, aad: []) }
        #expect(throws: CryptoError.authenticationFailed) { try AESGCM.open(box, key: key, aad: aad + [0]) }

        var otherKey = v.bytes("Key")
        otherKey[31] ^= 0x01
        #expect(throws: CryptoError.authenticationFailed) { try AESGCM.open(box, key: SecretBytes(otherKey), aad: aad) }

        #expect(throws: CryptoError.authenticationFailed) { try AESGCM.open(Array(box.dropLast()), key: key, aad: aad) }
        #expect(throws: CryptoError.authenticationFailed) { try AESGCM.open(box + [0], key: key, aad: aad) }
        for length in 0..<AESGCM.nonceSize + AESGCM.tagSize {
            #expect(throws: CryptoError.authenticationFailed) { try AESGCM.open(Array(box.prefix(length)), key: key, aad: aad) }
        }
        #expect(throws: CryptoError.authenticationFailed) {
            try AESGCM.open(ciphertextAndTag: Array(v.bytes("Tag").prefix(15)), key: key, nonce: v.bytes("IV"), aad: aad)
        }
    }

    @Test("flipping any single bit of nonce, ciphertext or tag fails authentication")
    func tamperEveryOffset() throws {
        let box = try AESGCM.seal(Array("a short secret".utf8), key: Self.key, aad: Array("header".utf8))
        for offset in box.indices {
            var tampered = box
            tampered[offset] ^= 0x04
            #expect(throws: CryptoError.authenticationFailed, "offset \(offset)") {
                try AESGCM.open(tampered, key: Self.key, aad: Array("header".utf8))
            }
            #expect(throws: CryptoError.authenticationFailed, "offset \(offset), into ordinary memory") {
                try tampered.withUnsafeBytes { try AESGCM.openNonSecret($0, key: Self.key, aad: Array("header".utf8)) }
            }
        }
    }

    @Test("keys other than 32 bytes and nonces other than 12 are invalid parameters, not crashes")
    func badSizes() {
        for size in [0, 16, 24, 31, 33, 64] {
            let key = SecretBytes(count: size)
            let sealError = #expect(throws: CryptoError.self) { try AESGCM.seal([1, 2, 3], key: key, aad: []) }
            #expect(sealError?.isInvalidParameters == true, "seal, \(size)-byte key")
            let openError = #expect(throws: CryptoError.self) {
                try AESGCM.open([UInt8](repeating: 0, count: 40), key: key, aad: [])
            }
            #expect(openError?.isInvalidParameters == true, "open, \(size)-byte key")
        }
        for size in [0, 8, 11, 13, 16] {
            let nonce = [UInt8](repeating: 0, count: size)
            let sealError = #expect(throws: CryptoError.self) { try AESGCM.seal([1], key: Self.key, nonce: nonce, aad: []) }
            #expect(sealError?.isInvalidParameters == true, "seal, \(size)-byte nonce")
            let openError = #expect(throws: CryptoError.self) {
                try AESGCM.open(ciphertextAndTag: [UInt8](repeating: 0, count: 16), key: Self.key, nonce: nonce, aad: [])
            }
            #expect(openError?.isInvalidParameters == true, "open, \(size)-byte nonce")
        }
    }

    @Test("seal and open round trip through every overload", arguments: [0, 1, 15, 16, 17, 1 << 20])
    func roundTrip(_ size: Int) throws {
        let plaintext = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let aad = Array("vault v1 record".utf8)

        let fromArray = try AESGCM.seal(plaintext, key: Self.key, aad: aad)
        #expect(fromArray.count == AESGCM.nonceSize + size + AESGCM.tagSize)
        #expect(try AESGCM.open(fromArray, key: Self.key, aad: aad).copyBytes() == plaintext)

        let fromSecret = try AESGCM.seal(SecretBytes(plaintext), key: Self.key, aad: aad)
        #expect(try AESGCM.open(fromSecret[...], key: Self.key, aad: aad).copyBytes() == plaintext)

        #expect(try fromArray.withUnsafeBytes { try AESGCM.openNonSecret($0, key: Self.key, aad: aad) } == plaintext)

        let fromRaw = try plaintext.withUnsafeBytes { try AESGCM.seal($0, key: Self.key, aad: []) }
        let opened = try fromRaw.withUnsafeBytes { try AESGCM.open($0, key: Self.key, aad: []) }
        #expect(opened.count == size)
        #expect(opened.copyBytes() == plaintext)

        // A slice that does not start at index 0, as when a box sits inside a larger file.
        let file = [0xAA, 0xBB] + fromArray + [0xCC]
        #expect(try AESGCM.open(file[2..<file.count - 1], key: Self.key, aad: aad).copyBytes() == plaintext)
    }

    @Test("one Opener opens many boxes under changing keys as open does, and goes on after a failure")
    func openerOpensWhatOpenOpens() throws {
        let opener = AESGCM.Opener()
        for round in 0..<64 {
            let key = SecretBytes(random: AESGCM.keySize)
            let plaintext = (0..<(round * 7 % 90)).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ round) }
            let aad = [UInt8(round), 1, 2]
            var box = try AESGCM.seal(plaintext, key: key, aad: aad)
            #expect(
                try box.withUnsafeBytes { box in try aad.withUnsafeBytes { try opener.open(box, key: key, aad: $0) } }.copyBytes()
                    == plaintext)
            // Every other round the box is tampered with: the opener refuses it, and opens the next box.
            if round % 2 == 1 {
                box[box.count - 1 - round % box.count] ^= 0x01
                #expect(throws: CryptoError.authenticationFailed) {
                    try box.withUnsafeBytes { box in try aad.withUnsafeBytes { try opener.open(box, key: key, aad: $0) } }
                }
                #expect(throws: CryptoError.authenticationFailed) {
                    try box.withUnsafeBytes { box in try (aad + [0]).withUnsafeBytes { try opener.open(box, key: key, aad: $0) } }
                }
            }
        }
        #expect(throws: CryptoError.authenticationFailed) {
            try [UInt8](repeating: 0, count: 27).withUnsafeBytes {
                try opener.open($0, key: Self.key, aad: UnsafeRawBufferPointer(start: nil, count: 0))
            }
        }
    }

    @Test("each seal uses a fresh nonce")
    func freshNonce() throws {
        let a = try AESGCM.seal([1, 2, 3], key: Self.key, aad: [])
        let b = try AESGCM.seal([1, 2, 3], key: Self.key, aad: [])
        #expect(a.prefix(AESGCM.nonceSize) != b.prefix(AESGCM.nonceSize))
        #expect(a != b)
    }

    @Test("sizes are those of AES-256-GCM")
    func sizes() {
        #expect(AESGCM.keySize == 32)
        #expect(AESGCM.nonceSize == 12)
        #expect(AESGCM.tagSize == 16)
    }
}
