import Testing
import VaultCrypto

@Suite("SecretBytes")
struct SecretBytesTests {
    @Test("holds a copy of what it was made from, through every initialiser")
    func roundTrip() {
        let bytes: [UInt8] = [0xde, 0xad, 0xbe, 0xef, 0x00, 0x01]
        #expect(SecretBytes(bytes).copyBytes() == bytes)
        #expect(SecretBytes(bytes[1...3]).copyBytes() == [0xad, 0xbe, 0xef])
        bytes.withUnsafeBytes { raw in
            #expect(SecretBytes(raw).copyBytes() == bytes)
        }
        #expect(SecretBytes(count: 5).copyBytes() == [0, 0, 0, 0, 0])
        #expect(SecretBytes(bytes).count == 6)
    }

    @Test("an empty buffer is usable and still hands out a valid pointer")
    func empty() {
        let empty = SecretBytes([])
        #expect(empty.count == 0)
        #expect(empty.copyBytes() == [])
        empty.withUnsafeBytes { raw in
            #expect(raw.count == 0)
            #expect(raw.baseAddress != nil)
        }
        #expect(SecretBytes(count: 0).constantTimeEquals(empty))
    }

    @Test("writes through withUnsafeMutableBytes are seen by readers")
    func mutation() {
        let secret = SecretBytes(count: 3)
        secret.withUnsafeMutableBytes { raw in
            raw[0] = 1
            raw[2] = 3
        }
        #expect(secret.copyBytes() == [1, 0, 3])
        let sum = secret.withUnsafeBytes { raw in raw.reduce(0) { $0 + Int($1) } }
        #expect(sum == 4)
    }

    @Test("the source array can change afterwards without touching the copy")
    func copiesInput() {
        var bytes: [UInt8] = [1, 2, 3]
        let secret = SecretBytes(bytes)
        bytes[0] = 9
        #expect(secret.copyBytes() == [1, 2, 3])
    }

    @Test("constantTimeEquals compares contents, and is false when sizes differ")
    func constantTimeComparison() {
        let a = SecretBytes([1, 2, 3, 4])
        #expect(a.constantTimeEquals(SecretBytes([1, 2, 3, 4])))
        #expect(!a.constantTimeEquals(SecretBytes([1, 2, 3, 5])))
        #expect(!a.constantTimeEquals(SecretBytes([1, 2, 3])))
        #expect(!a.constantTimeEquals(SecretBytes([1, 2, 3, 4, 0])))

        #expect(constantTimeEquals([1, 2, 3], [1, 2, 3]))
        #expect(!constantTimeEquals([1, 2, 3], [1, 2, 4]))
        #expect(!constantTimeEquals([1, 2, 3], [1, 2]))
        #expect(constantTimeEquals([], []))
        #expect(!constantTimeEquals([], [0]))
    }

    @Test("appending concatenates into a new buffer and leaves both halves alone")
    func appending() {
        let head = SecretBytes([1, 2])
        let tail = SecretBytes([3, 4, 5])
        let joined = head.appending(tail)
        #expect(joined.copyBytes() == [1, 2, 3, 4, 5])
        #expect(head.copyBytes() == [1, 2])
        #expect(tail.copyBytes() == [3, 4, 5])
        #expect(SecretBytes([]).appending(tail).copyBytes() == [3, 4, 5])
        #expect(head.appending(SecretBytes([])).copyBytes() == [1, 2])
    }

    @Test("no description, debug description or dump shows the bytes")
    func descriptionHidesContents() {
        let secret = SecretBytes([0xde, 0xad, 0xbe, 0xef])
        #expect(secret.description == "SecretBytes(4 bytes)")
        #expect("\(secret)" == "SecretBytes(4 bytes)")
        #expect(String(reflecting: secret) == "SecretBytes(4 bytes)")
        var dumped = ""
        dump(secret, to: &dumped)
        for rendering in [secret.description, secret.debugDescription, dumped] {
            for leak in ["222", "173", "190", "239", "de", "ad", "be", "ef", "DE"] {
                #expect(!rendering.contains(leak), "\(rendering) contains \(leak)")
            }
        }
    }

    @Test("init(random:) gives the requested size and different bytes each time")
    func random() {
        let a = SecretBytes(random: 32)
        let b = SecretBytes(random: 32)
        #expect(a.count == 32)
        #expect(!a.constantTimeEquals(b))
        #expect(SecretBytes(random: 0).count == 0)
    }
}
