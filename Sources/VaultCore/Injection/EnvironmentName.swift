/// The environment variable name of an item, for `vault env`.
package enum EnvironmentName {
    /// The item's own `envName`, or the default derived from its service and
    /// account: both upper-cased, joined by `_`, with every character other
    /// than A–Z, 0–9 and `_` turned into `_`, and `_` put first when the result
    /// would start with a digit. An empty account adds nothing:
    /// github/ci-bot → GITHUB_CI_BOT, npm/"" → NPM.
    package static func of(_ attributes: ItemAttributes) -> String {
        attributes.details.envName ?? derived(service: attributes.service, account: attributes.account)
    }

    /// The default name for service and account (see `of`).
    package static func derived(service: String, account: String) -> String {
        if let name = derivedFromASCII(service: service, account: account) { return name }
        let joined = account.isEmpty ? service : service + "_" + account
        var name = String(
            String.UnicodeScalarView(
                joined.uppercased().unicodeScalars.map { scalar in
                    (("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)) ? scalar : "_"
                }))
        if name.first?.isNumber ?? true { name = "_" + name }
        return name
    }

    /// `derived` for ASCII names, byte by byte (what `env` of 10 000 items spends most on otherwise);
    /// nil for a name with other characters, whose upper case Unicode decides.
    private static func derivedFromASCII(service: String, account: String) -> String? {
        guard service.utf8.allSatisfy({ $0 < 0x80 }), account.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        // `_` goes first when the name would start with a digit, or be empty (an empty service puts `_` first anyway).
        let startsWithDigit = service.utf8.first.map { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? account.isEmpty
        let count = (startsWithDigit ? 1 : 0) + service.utf8.count + (account.isEmpty ? 0 : 1 + account.utf8.count)
        // Written straight into the string's storage: one allocation, none for a name of up to 15 bytes.
        return String(unsafeUninitializedCapacity: count) { name in
            var written = 0
            func put(_ byte: UInt8) {
                name[written] = byte
                written += 1
            }
            func append(_ part: String) {
                for byte in part.utf8 {
                    switch byte {
                    case UInt8(ascii: "a")...UInt8(ascii: "z"): put(byte - 0x20)
                    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): put(byte)
                    default: put(UInt8(ascii: "_"))
                    }
                }
            }
            if startsWithDigit { put(UInt8(ascii: "_")) }
            append(service)
            if !account.isEmpty {
                put(UInt8(ascii: "_"))
                append(account)
            }
            return written
        }
    }
}
