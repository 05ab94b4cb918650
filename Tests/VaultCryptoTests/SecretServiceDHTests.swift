import Testing
import VaultCrypto

/// The Secret Service's dh-ietf1024-sha256-aes128-cbc-pkcs7 session: MODP group 2, HKDF-SHA256 to a
/// 16-byte key, AES-128-CBC with PKCS#7. The known answers come from Python's integers and
/// python3-cryptography (Generators/secret-service-dh.py), not from OpenSSL.
@Suite("Secret Service DH session")
struct SecretServiceDHTests {
    @Test(
        "public key, shared secret (left-padded), transfer key and ciphertext match python-cryptography",
        arguments: try Vectors.load("secret-service-dh.txt"))
    func knownAnswer(_ v: Vector) throws {
        let pair = try ModpGroup2KeyPair(privateKey: SecretBytes(v.bytes("Private")))
        #expect(hexString(pair.publicKey) == hexString(v.bytes("Public")))
        // Clients send their public key as a big integer's bytes: leading zero bytes may be dropped.
        let peer = Array(v.bytes("PeerPublic").drop { $0 == 0 })
        let shared = try pair.sharedSecret(peerPublicKey: peer)
        #expect(shared.count == 128)
        #expect(hexString(shared.copyBytes()) == hexString(v.bytes("Shared")))
        let key = try HKDF.deriveKey(inputKeyMaterial: shared, salt: [], info: [], length: AES128CBC.keySize)
        #expect(hexString(key.copyBytes()) == hexString(v.bytes("Key")))
        let sealed = try AES128CBC.encrypt(SecretBytes(v.bytes("Plaintext")), key: key, iv: v.bytes("IV"))
        #expect(hexString(sealed) == hexString(v.bytes("Ciphertext")))
        let opened = try AES128CBC.decrypt(sealed, key: key, iv: v.bytes("IV"))
        #expect(opened.copyBytes() == v.bytes("Plaintext"))
    }

    @Test("a peer key of 0, 1, p-1 or more than 128 bytes is refused; bad padding does not open")
    func refusals() throws {
        let pair = try ModpGroup2KeyPair()
        let prime = hexBytes(
            "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
                + "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
                + "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE65381FFFFFFFFFFFFFFFF")
        var primeMinusOne = prime
        primeMinusOne[127] -= 1
        for bad in [[], [1], primeMinusOne, prime, [UInt8](repeating: 1, count: 129)] {
            #expect(throws: CryptoError.self) { try pair.sharedSecret(peerPublicKey: bad) }
        }
        let key = SecretBytes([UInt8](repeating: 9, count: 16))
        let iv = [UInt8](repeating: 7, count: 16)
        var sealed = try AES128CBC.encrypt(SecretBytes([1, 2, 3]), key: key, iv: iv)
        sealed[15] ^= 0xff
        #expect(throws: CryptoError.authenticationFailed) { try AES128CBC.decrypt(sealed, key: key, iv: iv) }
        #expect(throws: CryptoError.authenticationFailed) { try AES128CBC.decrypt([1, 2, 3], key: key, iv: iv) }
    }
}
