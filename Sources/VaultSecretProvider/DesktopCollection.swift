import FoundationEssentials
import VaultCore
import VaultCrypto

/// The `login` collection: the items of one vault group, read and written through an `ItemStore`
/// opened afresh for each call (so a `vault unlock` or `vault lock` meanwhile is seen at once).
struct DesktopCollection {
    /// The group served; no attribute a client sends chooses another.
    let group: AccessGroup
    let openStore: () throws -> ItemStore

    /// What a read of the group found: its items, or that it is locked.
    enum Contents {
        case unlocked([ItemAttributes])
        case locked
    }

    /// The items of the group, without secrets; `.locked` when the keys at hand do not open all of them.
    func contents() throws -> Contents {
        do {
            let listing = try openStore().listing(matching: Query(group: group))
            return listing.locked > 0 ? .locked : .unlocked(listing.items)
        } catch let error as VaultError where DesktopCollection.meansLocked(error) {
            return .locked
        } catch VaultError.item(.noSuchGroup) {
            return .unlocked([])
        }
    }

    /// Whether `error` says the keys at hand do not open the group (rather than that something is wrong).
    static func meansLocked(_ error: VaultError) -> Bool {
        switch error.status {
        case .interactionNotAllowed, .authFailed, .missingEntitlement, .userCanceled: return true
        default: return false
        }
    }

    /// The one item whose object path ends in `element`, if the group holds it.
    func item(atPathElement element: String, in items: [ItemAttributes]) -> ItemAttributes? {
        items.first { ItemMapping.pathElement(of: $0) == element }
    }

    /// The secret of `item`.
    func secret(of item: ItemAttributes) throws -> SecretBytes {
        try openStore().item(matching: Query(service: item.service, account: item.account, group: group)).secret
    }

    /// Stores a secret under the mapping's key; with `replace`, an item with the same key is replaced,
    /// else the call fails as a duplicate (the Secret Service's CreateItem without replace adds another
    /// item; vault has one item per key). Returns the stored attributes.
    func store(
        attributes: [String: String], label: String, secret: SecretBytes, contentType: String, replace: Bool,
        now: Date
    ) throws -> ItemAttributes {
        let (service, account) = ItemMapping.key(attributes: attributes, label: label)
        let details = ItemDetails(label: label, generic: ItemMapping.generic(attributes: attributes, contentType: contentType))
        let new = NewItem(service: service, account: account, group: group, details: details, secret: secret)
        _ = try openStore().add(new, replaceExisting: replace)
        return ItemAttributes(service: service, account: account, group: group, details: details, created: now, modified: now)
    }

    /// Replaces the secret of `item`.
    func setSecret(of item: ItemAttributes, to secret: SecretBytes, contentType: String) throws {
        let attributes = ItemMapping.attributes(of: item).attributes
        let change = ItemChange(
            details: ItemDetails(generic: ItemMapping.generic(attributes: attributes, contentType: contentType)), secret: secret)
        _ = try openStore().update(matching: Query(service: item.service, account: item.account, group: group), with: change)
    }

    /// Replaces the attributes kept with `item` (in its generic data, beside its content type).
    func setAttributes(of item: ItemAttributes, to attributes: [String: String]) throws {
        let generic = ItemMapping.generic(attributes: attributes, contentType: ItemMapping.attributes(of: item).contentType)
        _ = try openStore().update(
            matching: Query(service: item.service, account: item.account, group: group),
            with: ItemChange(details: ItemDetails(generic: generic)))
    }

    /// Changes the label of `item`.
    func setLabel(of item: ItemAttributes, to label: String) throws {
        _ = try openStore().update(
            matching: Query(service: item.service, account: item.account, group: group),
            with: ItemChange(details: ItemDetails(label: label)))
    }

    /// Deletes `item` (to the vault's trash, as `vault delete` does).
    func delete(_ item: ItemAttributes) throws {
        _ = try openStore().delete(matching: Query(service: item.service, account: item.account, group: group), allMatching: false)
    }
}
