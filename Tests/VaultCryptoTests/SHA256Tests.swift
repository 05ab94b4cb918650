import Testing
import VaultCrypto

@Suite("SHA-256")
struct SHA256Tests {
    @Test("FIPS 180-2 and CAVP digests", arguments: try Vectors.load("sha256-fips180.txt"))
    func knownAnswer(_ v: Vector) {
        let message = v.bytes("Msg")
        #expect(hexString(SHA256.hash(message)) == hexString(v.bytes("MD")))
        let raw = message.withUnsafeBytes { SHA256.hash($0) }
        #expect(raw == SHA256.hash(message))
    }

    @Test("an empty buffer with no base address hashes like the empty array")
    func nilBase() {
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        #expect(SHA256.hash(empty) == SHA256.hash([]))
    }
}
