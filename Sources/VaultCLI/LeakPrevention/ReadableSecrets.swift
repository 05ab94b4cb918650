import VaultCore
import VaultCrypto

/// The secret of every item the caller can read in the groups of `--group`
/// (each given; else VAULT_GROUP or the config's group; else every group the
/// caller can open): what `vault scan` searches for and `vault redact` conceals.
struct ReadableSecrets {
    var items: [(key: ItemKey, secret: SecretBytes)]

    init(_ invocation: Invocation) throws {
        let named = try invocation.arguments.values(.group).map(ItemArguments.group(named:))
        let groups: [AccessGroup?] = named.isEmpty ? [try ItemArguments(invocation).group()] : named
        let store = try VaultAccess(invocation).store()
        var items: [(key: ItemKey, secret: SecretBytes)] = []
        var seen = Set<ItemKey>()
        for group in groups {
            for attributes in try store.attributes(matching: Query(group: group)) {
                let key = ItemKey(group: attributes.group, service: attributes.service, account: attributes.account)
                guard seen.insert(key).inserted else { continue }
                let item = try store.item(matching: Query(service: key.service, account: key.account, group: key.group))
                items.append((key, item.secret))
            }
        }
        self.items = items.sorted { ItemName.of($0.key) < ItemName.of($1.key) }
    }
}

/// How `scan` and its baseline name an item: its reference, which names the
/// group, service and account and never the secret.
enum ItemName {
    static func of(_ key: ItemKey) -> String {
        SecretReference(group: key.group, service: key.service, account: key.account).description
    }
}
