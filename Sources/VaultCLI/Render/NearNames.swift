import VaultCore

/// For a `get` that finds nothing: the stored names one slip away from the
/// ones asked for (another case, or one typo), as a hint.
enum NearNames {
    /// "did you mean …" naming the nearest item the keys at hand can list, or nil.
    static func hint(for query: Query, in store: ItemStore) -> String? {
        guard let items = try? store.listing(matching: Query(group: query.group)).items else { return nil }
        let near = items.filter { close(query.service, $0.service) && close(query.account, $0.account) }
            .sorted { ($0.service, $0.account) < ($1.service, $1.account) }
        guard let item = near.first else { return nil }
        return "did you mean service \(quoted(item.service)), account \(quoted(item.account))? "
            + "(vault get -s \(shellQuoted(item.service)) -a \(shellQuoted(item.account)))"
    }

    /// Whether `name` is what was asked for but for case or one edit; anything is close to a name not asked for.
    private static func close(_ wanted: String?, _ name: String) -> Bool {
        guard let wanted else { return true }
        return wanted.lowercased() == name.lowercased() || Suggestion.distance(wanted, name) <= 1
    }
}
