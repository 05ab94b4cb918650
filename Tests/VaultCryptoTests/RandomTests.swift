import Testing
import VaultCrypto

@Suite("SecureRandom")
struct RandomTests {
    @Test("returns the requested number of bytes", arguments: [0, 1, 12, 32, 4096])
    func count(_ n: Int) {
        #expect(SecureRandom.bytes(n).count == n)
    }

    @Test("two draws differ and are not all zero")
    func differs() {
        let a = SecureRandom.bytes(32)
        let b = SecureRandom.bytes(32)
        #expect(a != b)
        #expect(a != [UInt8](repeating: 0, count: 32))
    }
}
