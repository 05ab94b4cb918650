import VaultCore
import VaultCrypto

/// The secret and sealed fields of every item the caller can read in the groups of `--group`
/// (each given; else VAULT_GROUP or the config's group; else every group the
/// caller can open): what `vault scan` searches for and `vault redact` conceals.
struct ReadableSecrets {
    /// The items in the order they were read, an item once per secret value (its secret, then
    /// each sealed field): what a masker needs, no names.
    var items: [(key: ItemKey, secret: SecretBytes)]

    /// The items in the order of their names (`ItemName`), as scan reports them.
    var itemsByName: [(key: ItemKey, secret: SecretBytes)] {
        // Each name made once, not once per comparison.
        zip(items.map { ItemName.of($0.key) }, items).sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// `ifNone` says what finding no secret means for the command ("nothing is masked"); it
    /// follows a warning naming the groups searched, so a group left empty is never a silent success.
    /// `includingTrash` adds the secrets of the groups' trashed items (a deleted secret that leaked is still a leak).
    /// `groups` are the names --group gave.
    init(groups names: [String], _ invocation: Invocation, ifNone: String, includingTrash: Bool = false) throws {
        let named = try names.map(ItemArguments.group(named:))
        let groups: [AccessGroup?] = named.isEmpty ? [try ItemArguments(ItemSelection(group: nil), invocation).group()] : named
        let progress = ProgressLine.start(invocation, label: "reading secrets")
        let store = try VaultAccess(invocation).store(progress: progress)
        defer { progress?.finish() }
        var items: [(key: ItemKey, secret: SecretBytes)] = []
        if groups.count == 1 {
            // One reading of one group gives each item once.
            let found = try store.items(matching: Query(group: groups[0]))
            items.reserveCapacity(found.count)
            for item in found { ReadableSecrets.append(item, to: &items) }
        } else {
            var seen = Set<ItemKey>()
            for group in groups {
                for item in try store.items(matching: Query(group: group)) where seen.insert(item.attributes.key).inserted {
                    ReadableSecrets.append(item, to: &items)
                }
            }
        }
        if includingTrash, let vault = store.fileVault {
            for item in try vault.trashedSecrets() where groups.contains(nil) || groups.contains(item.attributes.group) {
                ReadableSecrets.append(item, to: &items)
            }
        }
        self.items = items
        if items.isEmpty {
            invocation.terminal.diagnostics.warning(
                "\(ReadableSecrets.scope(groups)) \(groups.count > 1 ? "hold" : "holds") no item you can read; \(ifNone)")
        }
    }
}

extension ReadableSecrets {
    /// Appends each of the item's secret values under its key (an append each, not an array per item).
    private static func append(_ item: Item, to items: inout [(key: ItemKey, secret: SecretBytes)]) {
        for value in item.secretValues { items.append((item.attributes.key, value)) }
    }

    /// "group "ci"", "groups "ci", "prod"", or "the vault" when no group was named.
    static func scope(_ groups: [AccessGroup?]) -> String {
        let named = groups.compactMap { $0.map { quoted($0.name) } }
        guard !named.isEmpty else { return "the vault" }
        return (named.count == 1 ? "group " : "groups ") + named.joined(separator: ", ")
    }
}

/// How `scan` and its baseline name an item: its reference, which names the
/// group, service and account and never the secret.
enum ItemName {
    static func of(_ key: ItemKey) -> String {
        SecretReference(group: key.group, service: key.service, account: key.account).description
    }
}
