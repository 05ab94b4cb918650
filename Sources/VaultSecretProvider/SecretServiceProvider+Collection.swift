import FoundationEssentials
import VaultCore
import VaultCrypto

/// The `login` collection's and its items' methods and properties, and the signals they emit.
extension SecretServiceProvider {
    func properties(_ call: IncomingCall, _ all: () throws -> [String: DBusValue]) rethrows -> CallReply {
        switch call.member {
        case "GetAll":
            return .values([.properties(try all().sorted { $0.key < $1.key }.map { ($0.key, $0.value) })])
        case "Get":
            guard call.arguments.count == 2, let name = call.arguments[1].text, let value = try all()[name] else {
                return SecretErrors.reply(SecretErrors.invalidArgs, "no such property")
            }
            return .values([.variant(value)])
        default:
            return SecretErrors.reply(SecretErrors.notSupported, "this property cannot be set")
        }
    }

    private func lockedItems() throws -> (locked: Bool, items: [ItemAttributes]) {
        switch try collection.contents() {
        case .locked: return (true, [])
        case .unlocked(let items): return (false, items)
        }
    }

    private func seconds(_ date: Date) -> DBusValue { .uint64(UInt64(max(0, date.timeIntervalSince1970))) }

    // MARK: the collection

    func collectionCall(_ call: IncomingCall) throws -> CallReply {
        let a = call.arguments
        if call.interface == SecretServiceProvider.propertiesInterface {
            guard call.member != "Set" else { return SecretErrors.reply(SecretErrors.notSupported, "the collection's label is fixed") }
            return try properties(call) {
                let (locked, items) = try lockedItems()
                let newest = items.map(\.modified).max() ?? Date(timeIntervalSince1970: 0)
                return [
                    "Items": .paths(items.map { ObjectPaths.item(ItemMapping.pathElement(of: $0)) }), "Label": .string("Login"),
                    "Locked": .boolean(locked), "Created": .uint64(0), "Modified": seconds(newest)
                ]
            }
        }
        switch (call.member, a.count) {
        case ("SearchItems", 1):
            guard let wanted = a[0].stringDictionary else { return SecretErrors.reply(SecretErrors.invalidArgs, "SearchItems takes a{ss}") }
            guard case .unlocked(let items) = try collection.contents() else { return .values([.paths([])]) }
            let found = items.filter { ItemMapping.matches(ItemMapping.attributes(of: $0).attributes, wanted) }
            return .values([.paths(found.map { ObjectPaths.item(ItemMapping.pathElement(of: $0)) })])
        case ("CreateItem", 3):
            return try createItem(call)
        case ("Delete", 0):
            return SecretErrors.reply(SecretErrors.notSupported, "the login collection is a vault group: 'vault group' removes one")
        default:
            return SecretErrors.reply(SecretErrors.unknownMethod, "no method \(call.interface).\(call.member) at \(call.path)")
        }
    }

    private func createItem(_ call: IncomingCall) throws -> CallReply {
        let a = call.arguments
        guard let properties = a[0].propertyMap, case .structure(let fields) = a[1], fields.count == 4,
            let sessionPath = fields[0].text, let parameters = fields[1].byteArray, let value = fields[2].byteArray,
            let replace = a[2].flag
        else {
            return SecretErrors.reply(SecretErrors.invalidArgs, "CreateItem takes a{sv}, (oayays), b")
        }
        guard let session = session(sessionPath, for: call.sender) else {
            return SecretErrors.reply(SecretErrors.noSession, "no session \(sessionPath) for this connection")
        }
        guard case .unlocked = try collection.contents() else {
            return SecretErrors.reply(SecretErrors.isLocked, "the vault group \(settings.group.name) is locked")
        }
        let label = properties[SecretServiceProvider.itemInterface + ".Label"]?.text ?? ""
        let attributes = properties[SecretServiceProvider.itemInterface + ".Attributes"]?.stringDictionary ?? [:]
        let contentType = fields[3].text ?? "text/plain"
        let secret: SecretBytes
        do {
            secret = try session.decode(parameters: parameters, value: value)
        } catch {
            return SecretErrors.reply(SecretErrors.invalidArgs, "the secret does not decrypt under this session")
        }
        let existed = try? collection.contents()
        let stored = try collection.store(
            attributes: attributes, label: label, secret: secret, contentType: contentType,
            replace: replace, now: Date())
        let path = ObjectPaths.item(ItemMapping.pathElement(of: stored))
        let wasThere: Bool
        if case .unlocked(let before)? = existed { wasThere = before.contains { $0.key == stored.key } } else { wasThere = false }
        bus.emit(
            path: ObjectPaths.collection, interface: SecretServiceProvider.collectionInterface,
            member: wasThere ? "ItemChanged" : "ItemCreated", [.objectPath(path)])
        if !wasThere { itemsChanged() }
        return .values([.objectPath(path), .objectPath(ObjectPaths.none)])
    }

    /// PropertiesChanged for the collection's Items, and CollectionChanged on the service.
    private func itemsChanged() {
        guard case .unlocked(let items)? = try? collection.contents() else { return }
        bus.emit(
            path: ObjectPaths.collection, interface: SecretServiceProvider.propertiesInterface, member: "PropertiesChanged",
            [
                .string(SecretServiceProvider.collectionInterface),
                .properties([("Items", .paths(items.map { ObjectPaths.item(ItemMapping.pathElement(of: $0)) }))]),
                .array(element: "s", [])
            ])
        bus.emit(
            path: ObjectPaths.service, interface: SecretServiceProvider.serviceInterface, member: "CollectionChanged",
            [.objectPath(ObjectPaths.collection)])
    }

    // MARK: items

    func itemCall(_ call: IncomingCall, element: String) throws -> CallReply {
        // An item's Locked follows its collection (Chromium reads it without unlocking the item).
        guard case .unlocked(let items) = try collection.contents() else {
            return SecretErrors.reply(SecretErrors.isLocked, "the vault group \(settings.group.name) is locked")
        }
        guard let item = collection.item(atPathElement: element, in: items) else {
            return SecretErrors.reply(SecretErrors.noSuchObject, "no item at \(call.path)")
        }
        let path = ObjectPaths.item(element)
        let a = call.arguments
        if call.interface == SecretServiceProvider.propertiesInterface {
            if call.member == "Set" {
                if a.count == 3, a[1].text == "Attributes", let attributes = a[2].stringDictionary {
                    // The attributes that name the vault item (its service and account) stay; the others change in place.
                    let key = ItemMapping.key(attributes: attributes, label: ItemMapping.label(of: item))
                    guard key.service == item.service, key.account == item.account else {
                        return SecretErrors.reply(
                            SecretErrors.notSupported,
                            "these attributes name another vault item (\(key.service), \(key.account)): store it again under them")
                    }
                    try collection.setAttributes(of: item, to: attributes)
                    bus.emit(
                        path: ObjectPaths.collection, interface: SecretServiceProvider.collectionInterface, member: "ItemChanged",
                        [.objectPath(path)])
                    return .none
                }
                guard a.count == 3, a[1].text == "Label", let label = a[2].text else {
                    return SecretErrors.reply(SecretErrors.notSupported, "an item's Label and Attributes can be set")
                }
                try collection.setLabel(of: item, to: label)
                bus.emit(
                    path: ObjectPaths.collection, interface: SecretServiceProvider.collectionInterface, member: "ItemChanged",
                    [.objectPath(path)])
                return .none
            }
            return properties(call) {
                [
                    "Locked": .boolean(false), "Attributes": .attributes(ItemMapping.attributes(of: item).attributes),
                    "Label": .string(ItemMapping.label(of: item)), "Type": .string(""),
                    "Created": seconds(item.created), "Modified": seconds(item.modified)
                ]
            }
        }
        switch (call.member, a.count) {
        case ("GetSecret", 1):
            guard let sessionPath = a[0].text, let session = session(sessionPath, for: call.sender) else {
                return SecretErrors.reply(SecretErrors.noSession, "no session \(a.first?.text ?? "") for this connection")
            }
            return .values([try session.encode(try collection.secret(of: item), contentType: ItemMapping.attributes(of: item).contentType)])
        case ("SetSecret", 1):
            guard case .structure(let fields) = a[0], fields.count == 4, let sessionPath = fields[0].text,
                let parameters = fields[1].byteArray, let value = fields[2].byteArray
            else {
                return SecretErrors.reply(SecretErrors.invalidArgs, "SetSecret takes (oayays)")
            }
            guard let session = session(sessionPath, for: call.sender) else {
                return SecretErrors.reply(SecretErrors.noSession, "no session \(sessionPath) for this connection")
            }
            guard let secret = try? session.decode(parameters: parameters, value: value) else {
                return SecretErrors.reply(SecretErrors.invalidArgs, "the secret does not decrypt under this session")
            }
            try collection.setSecret(of: item, to: secret, contentType: fields[3].text ?? "text/plain")
            bus.emit(
                path: ObjectPaths.collection, interface: SecretServiceProvider.collectionInterface, member: "ItemChanged",
                [.objectPath(path)])
            return .none
        case ("Delete", 0):
            try collection.delete(item)
            bus.emit(
                path: ObjectPaths.collection, interface: SecretServiceProvider.collectionInterface, member: "ItemDeleted",
                [.objectPath(path)])
            itemsChanged()
            return .values([.objectPath(ObjectPaths.none)])
        default:
            return SecretErrors.reply(SecretErrors.unknownMethod, "no method \(call.interface).\(call.member) at \(call.path)")
        }
    }
}
