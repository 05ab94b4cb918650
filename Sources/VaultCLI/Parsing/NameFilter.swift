import VaultCore

/// The filters of `list` over names: --search, a case-insensitive substring
/// of the service, account or label, and the --service-glob and
/// --account-glob shell globs.
struct NameFilter: Sendable {
    let search: String?
    let service: NamePattern?
    let account: NamePattern?

    init(_ options: OptionReader) {
        search = options.value(Self.search)?.lowercased()
        service = options.value(Self.serviceGlob).map(NamePattern.init)
        account = options.value(Self.accountGlob).map(NamePattern.init)
    }

    func matches(_ item: ItemAttributes) -> Bool {
        if let service, !service.matches(item.service) { return false }
        if let account, !account.matches(item.account) { return false }
        guard let search else { return true }
        return [item.service, item.account, item.details.label ?? ""].contains { $0.lowercased().contains(search) }
    }
}

// The filters over names, declared once.
extension NameFilter {
    static let search = OptionSpec("search", value: "TEXT", help: "only items whose service, account or label contains TEXT, in any case")
    static let serviceGlob = OptionSpec("service-glob", value: "GLOB", help: "only items whose service matches a shell glob, e.g. 'git:*'")
    static let accountGlob = OptionSpec("account-glob", value: "GLOB", help: "only items whose account matches a shell glob, e.g. 'ci-*'")

    /// Globs over names, for list and wipe; -s and -a stay exact, since names may hold `*`.
    static let globs = [serviceGlob, accountGlob]
}
