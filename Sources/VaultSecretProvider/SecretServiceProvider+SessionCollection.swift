import FoundationEssentials
import VaultCrypto

/// The `session` collection's and its items' methods and properties (`SessionCollection`): never
/// locked, since nothing in it is sealed by the vault.
extension SecretServiceProvider {
    /// The secret a client sent as a `(oayays)` Secret struct, or the error reply to answer instead.
    func incomingSecret(_ value: DBusValue, sender: String) -> Result<(secret: SecretBytes, contentType: String), IncomingSecretRefused> {
        guard case .structure(let fields) = value, fields.count == 4, let sessionPath = fields[0].text,
            let parameters = fields[1].byteArray, let bytes = fields[2].byteArray
        else {
            return .failure(IncomingSecretRefused(reply: SecretErrors.reply(SecretErrors.invalidArgs, "a Secret is (oayays)")))
        }
        guard let session = session(sessionPath, for: sender) else {
            return .failure(
                IncomingSecretRefused(reply: SecretErrors.reply(SecretErrors.noSession, "no session \(sessionPath) for this connection")))
        }
        guard let secret = try? session.decode(parameters: parameters, value: bytes) else {
            return .failure(
                IncomingSecretRefused(reply: SecretErrors.reply(SecretErrors.invalidArgs, "the secret does not decrypt under this session"))
            )
        }
        return .success((secret, fields[3].text ?? "text/plain"))
    }

    /// The items of the `session` collection matching `wanted` (none for an empty search), as paths.
    func sessionCollectionSearch(_ wanted: [String: String]) -> [String] {
        sessionCollection.items.filter { ItemMapping.matches($0.attributes, wanted) }.map { ObjectPaths.sessionItem($0.id) }
    }

    private var now: UInt64 { UInt64(max(0, Date().timeIntervalSince1970)) }

    func sessionCollectionCall(_ call: IncomingCall) throws -> CallReply {
        let a = call.arguments
        if call.interface == SecretServiceProvider.propertiesInterface {
            guard call.member != "Set" else { return SecretErrors.reply(SecretErrors.notSupported, "the collection's label is fixed") }
            return properties(call) {
                let items = sessionCollection.items
                return [
                    "Items": .paths(items.map { ObjectPaths.sessionItem($0.id) }), "Label": .string("Session"),
                    "Locked": .boolean(false), "Created": .uint64(0), "Modified": .uint64(items.map(\.modified).max() ?? 0)
                ]
            }
        }
        switch (call.member, a.count) {
        case ("SearchItems", 1):
            guard let wanted = a[0].stringDictionary else { return SecretErrors.reply(SecretErrors.invalidArgs, "SearchItems takes a{ss}") }
            return .values([.paths(sessionCollectionSearch(wanted))])
        case ("CreateItem", 3):
            guard let properties = a[0].propertyMap, let replace = a[2].flag else {
                return SecretErrors.reply(SecretErrors.invalidArgs, "CreateItem takes a{sv}, (oayays), b")
            }
            let incoming: (secret: SecretBytes, contentType: String)
            switch incomingSecret(a[1], sender: call.sender) {
            case .success(let value): incoming = value
            case .failure(let refused): return refused.reply
            }
            let label = properties[SecretServiceProvider.itemInterface + ".Label"]?.text ?? ""
            let attributes = properties[SecretServiceProvider.itemInterface + ".Attributes"]?.stringDictionary ?? [:]
            let (item, isNew) = try sessionCollection.store(
                label: label, attributes: attributes, secret: incoming.secret.copyBytes(),
                contentType: incoming.contentType, replace: replace, now: now)
            let path = ObjectPaths.sessionItem(item.id)
            bus.emit(
                path: ObjectPaths.sessionCollection, interface: SecretServiceProvider.collectionInterface,
                member: isNew ? "ItemCreated" : "ItemChanged", [.objectPath(path)])
            return .values([.objectPath(path), .objectPath(ObjectPaths.none)])
        case ("Delete", 0):
            return SecretErrors.reply(SecretErrors.notSupported, "the session collection goes with the login")
        default:
            return SecretErrors.reply(SecretErrors.unknownMethod, "no method \(call.interface).\(call.member) at \(call.path)")
        }
    }

    func sessionItemCall(_ call: IncomingCall, id: String) throws -> CallReply {
        guard let item = sessionCollection.item(id) else { return SecretErrors.reply(SecretErrors.noSuchObject, "no item at \(call.path)") }
        let path = ObjectPaths.sessionItem(id)
        let a = call.arguments
        if call.interface == SecretServiceProvider.propertiesInterface {
            if call.member == "Set" {
                if a.count == 3, a[1].text == "Attributes", let attributes = a[2].stringDictionary {
                    try sessionCollection.update(id, now: now) { $0.attributes = attributes }
                } else if a.count == 3, a[1].text == "Label", let label = a[2].text {
                    try sessionCollection.update(id, now: now) { $0.label = label }
                } else {
                    return SecretErrors.reply(SecretErrors.notSupported, "an item's Label and Attributes can be set")
                }
                bus.emit(
                    path: ObjectPaths.sessionCollection, interface: SecretServiceProvider.collectionInterface, member: "ItemChanged",
                    [.objectPath(path)])
                return .none
            }
            return properties(call) {
                [
                    "Locked": .boolean(false), "Attributes": .attributes(item.attributes), "Label": .string(item.label),
                    "Type": .string(""),
                    "Created": .uint64(item.created), "Modified": .uint64(item.modified)
                ]
            }
        }
        switch (call.member, a.count) {
        case ("GetSecret", 1):
            guard let sessionPath = a[0].text, let session = session(sessionPath, for: call.sender) else {
                return SecretErrors.reply(SecretErrors.noSession, "no session \(a.first?.text ?? "") for this connection")
            }
            return .values([try session.encode(SecretBytes(item.secret), contentType: item.contentType)])
        case ("SetSecret", 1):
            switch incomingSecret(a[0], sender: call.sender) {
            case .failure(let refused): return refused.reply
            case .success(let incoming):
                try sessionCollection.update(id, now: now) {
                    $0.secret = incoming.secret.copyBytes()
                    $0.contentType = incoming.contentType
                }
            }
            bus.emit(
                path: ObjectPaths.sessionCollection, interface: SecretServiceProvider.collectionInterface, member: "ItemChanged",
                [.objectPath(path)])
            return .none
        case ("Delete", 0):
            try sessionCollection.delete(id)
            bus.emit(
                path: ObjectPaths.sessionCollection, interface: SecretServiceProvider.collectionInterface, member: "ItemDeleted",
                [.objectPath(path)])
            return .values([.objectPath(ObjectPaths.none)])
        default:
            return SecretErrors.reply(SecretErrors.unknownMethod, "no method \(call.interface).\(call.member) at \(call.path)")
        }
    }
}

/// A Secret struct the provider will not take, with the error reply that says why.
struct IncomingSecretRefused: Error {
    let reply: CallReply
}
