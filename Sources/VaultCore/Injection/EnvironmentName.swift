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
        let joined = account.isEmpty ? service : service + "_" + account
        var name = String(String.UnicodeScalarView(joined.uppercased().unicodeScalars.map { scalar in
            (("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)) ? scalar : "_"
        }))
        if name.first?.isNumber ?? true { name = "_" + name }
        return name
    }
}
