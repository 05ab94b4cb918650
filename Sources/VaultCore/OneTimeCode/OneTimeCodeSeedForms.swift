import VaultCrypto

extension OneTimeCodeSecret {
    /// The forms a one-time code secret's seed is printed in, beside the secret as stored: the
    /// `secret=` parameter of an otpauth:// URI (percent-decoded), and the Base32 seed without
    /// spaces or `=` padding in upper and in lower case. A masker conceals them and a scan looks
    /// for them as it does for the secret; a value that is not a one-time code secret gives none.
    package static func seedForms(of value: SecretBytes) -> [SecretBytes] {
        // Most secrets are neither: told apart in place, without a copy (bulk reads ask of every item).
        guard value.withUnsafeBytes(mayHoldSeed) else { return [] }
        var bytes = value.copyBytes()
        defer { wipe(&bytes) }
        while let last = bytes.last, last == 0x0A || last == 0x0D || last == 0x20 { bytes.removeLast() }
        var seed = uriSeed(bytes) ?? bytes
        defer { wipe(&seed) }
        guard let key = Base32.decode(seed), key.count >= minimumKeyBytes else { return [] }
        var upper = seed.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "=") }.map(uppercased)
        var lower = upper.map(lowercased)
        defer {
            wipe(&upper)
            wipe(&lower)
        }
        var forms: [[UInt8]] = []
        for form in [seed, upper, lower] where form != bytes && !forms.contains(form) { forms.append(form) }
        return forms.map { SecretBytes($0) }
    }

    /// Whether `bytes` begin with otpauth:// or hold only what a Base32 seed is written with.
    private static func mayHoldSeed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let scheme = "otpauth://".utf8
        if bytes.count > scheme.count, zip(bytes, scheme).allSatisfy({ lowercased($0) == $1 }) { return true }
        return bytes.count >= 16
            && bytes.allSatisfy { byte in
                Base32.value(of: byte) != nil || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "=") || byte == 0x0A || byte == 0x0D
            }
    }

    /// The percent-decoded `secret=` parameter of an otpauth:// URI; nil for anything else.
    private static func uriSeed(_ bytes: [UInt8]) -> [UInt8]? {
        let scheme = Array("otpauth://".utf8)
        guard bytes.count > scheme.count, bytes.prefix(scheme.count).map(lowercased) == scheme,
            let questionMark = bytes.firstIndex(of: UInt8(ascii: "?"))
        else { return nil }
        for pair in bytes[questionMark...].dropFirst().split(separator: UInt8(ascii: "&")) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2, parts[0].map(lowercased) == Array("secret".utf8) { return percentDecoded(Array(parts[1])) }
        }
        return nil
    }

    private static func uppercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) ? byte - 32 : byte
    }

    private static func wipe(_ bytes: inout [UInt8]) {
        for index in bytes.indices { bytes[index] = 0 }
    }
}
