import Testing
import VaultCrypto

@Suite("SecretBytesBuilder")
struct SecretBytesBuilderTests {
    @Test("pieces of every kind come out in order, exactly, across growth")
    func appendsInOrderAcrossGrowth() {
        var builder = SecretBytesBuilder(capacity: 4)
        builder.append("NAME='")
        builder.append(SecretBytes([0x00, 0xFF, 0x27]))
        builder.append("\n")
        let big = [UInt8](repeating: 0x5A, count: 10_000)
        big.withUnsafeBytes { builder.append($0) }
        builder.append(UnsafeRawBufferPointer(start: nil, count: 0))
        let result = builder.finish()
        #expect(builder.count == 6 + 3 + 1 + 10_000)
        #expect(result.count == builder.count)
        #expect(result.copyBytes() == Array("NAME='".utf8) + [0x00, 0xFF, 0x27, 0x0A] + big)
    }

    @Test("escaping replaces the bytes it names and copies the runs between whole")
    func escaping() {
        var builder = SecretBytesBuilder()
        for text in ["it's", "'", "", "''x"] {
            Array(text.utf8).withUnsafeBytes { builder.append($0) { $0 == UInt8(ascii: "'") ? "<q>" : nil } }
            builder.append("|")
        }
        #expect(builder.finish().copyBytes() == Array("it<q>s|<q>||<q><q>x|".utf8))
    }

    @Test("an empty builder finishes as an empty secret")
    func empty() {
        #expect(SecretBytesBuilder().finish().count == 0)
    }

}
