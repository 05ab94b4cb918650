import VaultCore

/// A version of a vault file as lines of text for `git diff` (`vault textconv`), and what changed
/// between two versions as a commit message (`vault sync`): names, dates and keyed digests of
/// secrets, never a secret (docs/TEAMS.md, "Reading a team vault's history").
enum FileSummaryText {
    /// The lines `vault textconv` prints: a heading, one line per group, one per item, sorted so
    /// that an unchanged item is the same line in every version. `lockedReason` says why nothing
    /// opened, when nothing did.
    static func lines(_ summary: VaultFileSummary, lockedReason: String?) -> [String] {
        var lines = [
            "vault file, format \(summary.formatVersion), key epoch \(summary.keyEpoch): \(counted(summary.entries.count, "item"))"
        ]
        if let lockedReason { lines.append("(\(lockedReason): item ids only; a session or a key file shows names)") }
        var counts: [UInt32: Int] = [:]
        for entry in summary.entries { counts[entry.groupID, default: 0] += 1 }
        for id in counts.keys.sorted() {
            lines.append("group #\(id)\(summary.groupNames[id].map { " " + quoted($0) } ?? ""): \(counted(counts[id] ?? 0, "item"))")
        }
        let opened = summary.entries.compactMap { entry in entry.attributes.map { (item: $0, digest: entry.secretDigest) } }
            .sorted { order($0.item, $1.item) }
        let sealed = summary.entries.filter { $0.attributes == nil }.sorted { ($0.groupID, $0.itemID) < ($1.groupID, $1.itemID) }
        lines += opened.map { itemLine($0.item, digest: $0.digest) }
        lines += sealed.map { "sealed item \($0.itemID) in group #\($0.groupID), revision \($0.revision)" }
        return lines
    }

    private static func order(_ a: ItemAttributes, _ b: ItemAttributes) -> Bool {
        (a.group.name, a.service, a.account) < (b.group.name, b.service, b.account)
    }

    private static func itemLine(_ item: ItemAttributes, digest: String?) -> String {
        var line = "group \(quoted(item.group.name)) service \(quoted(item.service)) account \(quoted(item.account))"
        if let label = item.details.label { line += " label \(quoted(label))" }
        line += " modified \(DateText.iso(item.modified))"
        if let digest { line += " secret \(digest)" }
        return line
    }

    /// A commit message's subject: what changed, by count and group id ("2 changed, 1 added in
    /// group #3803823293"), or with `names` by group and item names where the keys at hand opened
    /// them ("changed ci/deploy/ci-bot; added ci/db/admin"); nil when nothing changed.
    static func commitSubject(_ changes: [ItemChangeSummary], names: Bool) -> String? {
        guard !changes.isEmpty else { return nil }
        if names, changes.allSatisfy({ $0.entry.attributes != nil }) {
            return ItemChangeSummary.Kind.allCases.compactMap { kind in
                let items = changes.filter { $0.kind == kind }.compactMap(\.entry.attributes)
                guard !items.isEmpty else { return nil }
                return "\(kind.rawValue) "
                    + items.map { SecretReference(group: $0.group, service: $0.service, account: $0.account).shortName }
                    .joined(separator: ", ")
            }.joined(separator: "; ")
        }
        var byGroup: [UInt32: [ItemChangeSummary.Kind: Int]] = [:]
        for change in changes { byGroup[change.entry.groupID, default: [:]][change.kind, default: 0] += 1 }
        return byGroup.keys.sorted().map { id in
            let counts = byGroup[id] ?? [:]
            let parts = ItemChangeSummary.Kind.allCases.compactMap { kind in counts[kind].map { "\($0) \(kind.rawValue)" } }
            return parts.joined(separator: ", ") + " in group #\(id)"
        }.joined(separator: "; ")
    }
}
