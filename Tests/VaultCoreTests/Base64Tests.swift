import Testing
@testable import VaultCore
import VaultCrypto

@Suite struct Base64Tests {
    @Test func knownVectorsOfRFC4648() {
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy"]
        for (plain, encoded) in vectors {
            #expect(Base64.encode(Array(plain.utf8)) == encoded)
            #expect(Base64.decode(encoded) == Array(plain.utf8))
        }
    }

    @Test func randomBytesRoundTrip() {
        for length in 0..<70 {
            let bytes = SecureRandom.bytes(length)
            #expect(Base64.decode(Base64.encode(bytes)) == bytes)
        }
    }

    @Test func refusesWhatIsNotBase64() {
        for text in ["Zg=", "Z===", "Zm9v\n", "Zm 9", "Zm9v====", "=Zm9", "Zg=a", "Zm9-"] {
            #expect(Base64.decode(text) == nil, "\(text)")
        }
    }
}
