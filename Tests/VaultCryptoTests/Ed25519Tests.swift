import Testing
@testable import VaultCrypto

/// Ed25519 against RFC 8032 §7.1's first two test vectors, and refusals.
@Suite struct Ed25519Tests {
    static let vectors: [(secret: String, publicKey: String, message: String, signature: String)] = [
        (
            "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
            "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
        ),
        (
            "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
            "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
            "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"
        )
    ]

    @Test func rfc8032Vectors() throws {
        for vector in Self.vectors {
            let secret = SecretBytes(hexBytes(vector.secret))
            #expect(hexString(try Ed25519.publicKey(of: secret)) == vector.publicKey)
            let signature = try Ed25519.sign(hexBytes(vector.message), privateKey: secret)
            #expect(hexString(signature) == vector.signature)
            #expect(Ed25519.isValid(signature: signature, of: hexBytes(vector.message), publicKey: hexBytes(vector.publicKey)))
        }
    }

    @Test func aChangedMessageSignatureOrKeyIsNotValid() throws {
        let vector = Self.vectors[1]
        let (message, signature, key) = (hexBytes(vector.message), hexBytes(vector.signature), hexBytes(vector.publicKey))
        #expect(!Ed25519.isValid(signature: signature, of: message + [0], publicKey: key))
        var flipped = signature
        flipped[10] ^= 1
        #expect(!Ed25519.isValid(signature: flipped, of: message, publicKey: key))
        #expect(!Ed25519.isValid(signature: signature, of: message, publicKey: hexBytes(Self.vectors[0].publicKey)))
        #expect(!Ed25519.isValid(signature: Array(signature.prefix(63)), of: message, publicKey: key))
        #expect(throws: CryptoError.self) { try Ed25519.sign(message, privateKey: SecretBytes([1, 2, 3])) }
    }
}
