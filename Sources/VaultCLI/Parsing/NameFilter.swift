import VaultCore

/// The filters of `list` over names: --search, a case-insensitive substring
/// of the service, account or label, and the --service-glob and
/// --account-glob shell globs.
struct NameFilter: Sendable {
    let search: String?
    let service: NamePattern?
    let account: NamePattern?

    init(_ options: OptionReader) {
        search = options.value(.search)?.lowercased()
        service = options.value(.serviceGlob).map(NamePattern.init)
        account = options.value(.accountGlob).map(NamePattern.init)
    }

    func matches(_ item: ItemAttributes) -> Bool {
        if let service, !service.matches(item.service) { return false }
        if let account, !account.matches(item.account) { return false }
        guard let search else { return true }
        return [item.service, item.account, item.details.label ?? ""].contains { $0.lowercased().contains(search) }
    }
}
