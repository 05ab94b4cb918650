import VaultCrypto

/// Base32 (RFC 4648, section 6) as one-time code seeds are written: either
/// case, spaces allowed between groups, `=` padding optional.
enum Base32 {
    /// The decoded bytes, or nil when `text` is not Base32 or decodes to nothing.
    static func decode(_ text: some Collection<UInt8>) -> SecretBytes? {
        var builder = SecretBytesBuilder(capacity: text.count)
        var buffer: UInt64 = 0
        var bits = 0
        var padding = false
        for byte in text where byte != UInt8(ascii: " ") {
            if byte == UInt8(ascii: "=") {
                padding = true
                continue
            }
            guard !padding, let value = value(of: byte) else { return nil }
            buffer = buffer << 5 | UInt64(value)
            bits += 5
            if bits >= 8 {
                bits -= 8
                var out = UInt8(truncatingIfNeeded: buffer >> UInt64(bits))
                withUnsafeBytes(of: &out) { builder.append($0) }
                out = 0
            }
        }
        buffer = 0
        guard builder.count > 0, bits < 5 else { return nil }
        return builder.finish()
    }

    static func value(of byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a")
        case UInt8(ascii: "2")...UInt8(ascii: "7"): byte - UInt8(ascii: "2") + 26
        default: nil
        }
    }
}
