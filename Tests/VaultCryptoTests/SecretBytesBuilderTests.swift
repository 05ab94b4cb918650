import Testing
import VaultCrypto

@Suite("SecretBytesBuilder")
struct SecretBytesBuilderTests {
    @Test("pieces of every kind come out in order, exactly, across growth")
    func appendsInOrderAcrossGrowth() {
        var builder = SecretBytesBuilder(capacity: 4)
        builder.append("NAME='")
        builder.append(SecretBytes([0x00, 0xFF, 0x27]))
        builder.append(byte: 0x0A)
        let big = [UInt8](repeating: 0x5A, count: 10_000)
        big.withUnsafeBytes { builder.append($0) }
        builder.append(UnsafeRawBufferPointer(start: nil, count: 0))
        let result = builder.finish()
        #expect(builder.count == 6 + 3 + 1 + 10_000)
        #expect(result.count == builder.count)
        #expect(result.copyBytes() == Array("NAME='".utf8) + [0x00, 0xFF, 0x27, 0x0A] + big)
    }

    @Test("an empty builder finishes as an empty secret")
    func empty() {
        #expect(SecretBytesBuilder().finish().count == 0)
    }

}
