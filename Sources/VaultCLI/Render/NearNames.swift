import VaultCore

/// For a `get` or a reference that finds nothing: the stored names one slip
/// away from the ones asked for (another case, or one typo), as a hint.
enum NearNames {
    /// "did you mean …" naming the nearest item the keys at hand can list, or nil.
    static func hint(for query: Query, in store: ItemStore) -> String? {
        guard let item = nearest(to: query, in: store) else { return nil }
        return "did you mean service \(quoted(item.service)), account \(quoted(item.account))? "
            + "(vault get -s \(shellQuoted(item.service)) -a \(shellQuoted(item.account)))"
    }

    /// "; did you mean vault://…?" for a reference that names no item (`vault://github/ci-bto`),
    /// spelled as the reference was (its group only when it named one, its `?otp`), or "".
    static func referenceHint(for reference: SecretReference, query: Query, in store: ItemStore) -> String {
        guard let item = nearest(to: query, in: store) else { return "" }
        var near = SecretReference(group: reference.group.map { _ in item.group }, service: item.service, account: item.account)
        near.part = reference.part
        return "; did you mean \(near)?"
    }

    /// The nearest item the keys at hand can list in the query's group (any group when it names none), or nil.
    private static func nearest(to query: Query, in store: ItemStore) -> ItemAttributes? {
        guard let items = try? store.listing(matching: Query(group: query.group)).items else { return nil }
        return items.filter { close(query.service, $0.service) && close(query.account, $0.account) }
            .min { ($0.service, $0.account) < ($1.service, $1.account) }
    }

    /// Whether `name` is what was asked for but for case or one edit; anything is close to a name not asked for.
    private static func close(_ wanted: String?, _ name: String) -> Bool {
        guard let wanted else { return true }
        return wanted.lowercased() == name.lowercased() || Suggestion.distance(wanted, name) <= 1
    }
}
