/// The environment variable name of an item, for `vault env`.
public enum EnvironmentName {
    /// The item's own `envName`, or the default derived from its service and
    /// account: both upper-cased, joined by `_`, with every character other
    /// than A–Z, 0–9 and `_` turned into `_`, and `_` put first when the result
    /// would start with a digit. An empty account adds nothing:
    /// github/ci-bot → GITHUB_CI_BOT, npm/"" → NPM.
    public static func of(_ attributes: ItemAttributes) -> String {
        attributes.details.envName ?? derived(service: attributes.service, account: attributes.account)
    }

    /// The default name for service and account (see `of`).
    public static func derived(service: String, account: String) -> String {
        if let name = derivedFromASCII(service: service, account: account) { return name }
        let joined = account.isEmpty ? service : service + "_" + account
        var name = String(String.UnicodeScalarView(joined.uppercased().unicodeScalars.map { scalar in
            (("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)) ? scalar : "_"
        }))
        if name.first?.isNumber ?? true { name = "_" + name }
        return name
    }

    /// `derived` for ASCII names, byte by byte (what `env` of 10 000 items spends most on otherwise);
    /// nil for a name with other characters, whose upper case Unicode decides.
    private static func derivedFromASCII(service: String, account: String) -> String? {
        guard service.utf8.allSatisfy({ $0 < 0x80 }), account.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        var name: [UInt8] = []
        name.reserveCapacity(service.utf8.count + account.utf8.count + 2)
        func append(_ part: String) {
            for byte in part.utf8 {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"): name.append(byte - 0x20)
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): name.append(byte)
                default: name.append(UInt8(ascii: "_"))
                }
            }
        }
        append(service)
        if !account.isEmpty {
            name.append(UInt8(ascii: "_"))
            append(account)
        }
        if name.first.map({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) ?? true { name.insert(UInt8(ascii: "_"), at: 0) }
        return String(decoding: name, as: UTF8.self)
    }
}
