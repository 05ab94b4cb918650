/// Bech32 (BIP 173), the encoding age writes its recipients and identities in:
/// the original checksum (not Bech32m's), and no 90-character limit (age's
/// own encoder has none). Text is ASCII bytes, so an identity's encoding can
/// stay in locked memory; every intermediate array is zeroed before it is
/// released, as the data may be a private key.
enum Bech32 {
    private static let charset = Array("qpzry9x8gf2tvdw0s3jn54khce6mua7l".utf8)
    private static let generator: [UInt32] = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3]

    /// Why a text is not Bech32.
    enum Failure: Error, Equatable {
        case noSeparator, mixedCase, badCharacter, badChecksum, badPadding
    }

    /// `hrp` ‖ "1" ‖ `data` in 5-bit groups ‖ checksum, lower-case (upper-case when `upper`).
    static func encode(hrp: [UInt8], data: [UInt8], upper: Bool = false) -> [UInt8] {
        let lowerHRP = hrp.map(lowercased)
        var groups = regroup(data, from: 8, to: 5, pad: true) ?? []
        defer { wipe(&groups) }
        groups += checksum(hrp: lowerHRP, groups: groups)
        var text = lowerHRP + [UInt8(ascii: "1")]
        text.reserveCapacity(text.count + groups.count)
        for group in groups { text.append(upper ? uppercased(charset[Int(group)]) : charset[Int(group)]) }
        if upper { for index in 0..<lowerHRP.count { text[index] = uppercased(text[index]) } }
        return text
    }

    /// The human-readable part (lower-case) and the data of `text`, all upper- or all lower-case.
    static func decode(_ text: [UInt8]) throws -> (hrp: [UInt8], data: [UInt8]) {
        let hasLower = text.contains { (0x61...0x7A).contains($0) }, hasUpper = text.contains { (0x41...0x5A).contains($0) }
        guard !(hasLower && hasUpper) else { throw Failure.mixedCase }
        var lower = text.map(lowercased)
        defer { wipe(&lower) }
        guard let separator = lower.lastIndex(of: UInt8(ascii: "1")), separator > 0, lower.count - separator - 1 >= 6 else {
            throw Failure.noSeparator
        }
        let hrp = Array(lower[..<separator])
        guard hrp.allSatisfy({ (33...126).contains($0) }) else { throw Failure.badCharacter }
        var groups: [UInt8] = []
        defer { wipe(&groups) }
        groups.reserveCapacity(lower.count - separator - 1)
        for character in lower[(separator + 1)...] {
            guard let value = charset.firstIndex(of: character) else { throw Failure.badCharacter }
            groups.append(UInt8(value))
        }
        var values = expand(hrp) + groups
        defer { wipe(&values) }
        guard polymod(values) == 1 else { throw Failure.badChecksum }
        var payload = Array(groups.dropLast(6))
        defer { wipe(&payload) }
        guard let data = regroup(payload, from: 5, to: 8, pad: false) else { throw Failure.badPadding }
        return (hrp, data)
    }

    private static func checksum(hrp: [UInt8], groups: [UInt8]) -> [UInt8] {
        var values = expand(hrp) + groups + [0, 0, 0, 0, 0, 0]
        defer { wipe(&values) }
        let mod = polymod(values) ^ 1
        return (0..<6).map { UInt8((mod >> (5 * (5 - UInt32($0)))) & 31) }
    }

    private static func polymod(_ values: [UInt8]) -> UInt32 {
        var check: UInt32 = 1
        for value in values {
            let top = check >> 25
            check = (check & 0x1FFFFFF) << 5 ^ UInt32(value)
            for bit in 0..<5 where (top >> bit) & 1 == 1 { check ^= generator[bit] }
        }
        return check
    }

    private static func expand(_ hrp: [UInt8]) -> [UInt8] {
        hrp.map { $0 >> 5 } + [0] + hrp.map { $0 & 31 }
    }

    /// Bits regrouped from `from`-bit to `to`-bit values; nil when, without padding, bits are left over.
    private static func regroup(_ values: [UInt8], from: Int, to: Int, pad: Bool) -> [UInt8]? {
        var accumulator = 0, bits = 0
        var out: [UInt8] = []
        let mask = (1 << to) - 1
        for value in values {
            accumulator = (accumulator << from) | Int(value)
            bits += from
            while bits >= to {
                bits -= to
                out.append(UInt8((accumulator >> bits) & mask))
            }
        }
        if pad {
            if bits > 0 { out.append(UInt8((accumulator << (to - bits)) & mask)) }
        } else if bits >= from || (accumulator << (to - bits)) & mask != 0 {
            return nil
        }
        return out
    }

    private static func wipe(_ bytes: inout [UInt8]) {
        for index in bytes.indices { bytes[index] = 0 }
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte + 32 : byte }
    private static func uppercased(_ byte: UInt8) -> UInt8 { (0x61...0x7A).contains(byte) ? byte - 32 : byte }
}
