import FoundationEssentials
import VaultCore
import VaultCrypto

/// The methods of each object: the Service, the `login` collection (also at its alias), its items,
/// sessions and prompts, with org.freedesktop.DBus.Properties and Introspectable on each.
extension SecretServiceProvider {
    static let serviceInterface = "org.freedesktop.Secret.Service"
    static let collectionInterface = "org.freedesktop.Secret.Collection"
    static let itemInterface = "org.freedesktop.Secret.Item"
    static let propertiesInterface = "org.freedesktop.DBus.Properties"

    func handle(_ call: IncomingCall) -> CallReply {
        let target = ObjectPaths.target(of: call.path)
        if call.interface == "org.freedesktop.DBus.Introspectable" || (call.interface.isEmpty && call.member == "Introspect") {
            return .values([.string(Introspection.xml(for: target, children: childNames(of: call.path)))])
        }
        if call.interface == "org.freedesktop.DBus.Peer" || (call.interface.isEmpty && call.member == "Ping") {
            return call.member == "Ping" ? .none : .values([.string("")])
        }
        do {
            switch target {
            case .service: return try serviceCall(call)
            case .collection: return try collectionCall(call)
            case .item(let element): return try itemCall(call, element: element)
            case .sessionCollection: return try sessionCollectionCall(call)
            case .sessionItem(let id): return try sessionItemCall(call, id: id)
            case .session(let path): return sessionCall(call, path: path)
            case .prompt(let path): return promptCall(call, path: path)
            case .unknown: return SecretErrors.reply(SecretErrors.noSuchObject, "no object at \(call.path)")
            }
        } catch let error as VaultError where DesktopCollection.meansLocked(error) {
            return SecretErrors.reply(SecretErrors.isLocked, "the vault group \(settings.group.name) is locked")
        } catch let error as VaultError {
            return SecretErrors.reply(SecretErrors.failed, "vault: \(error.status)")
        } catch {
            return SecretErrors.reply(SecretErrors.failed, "vault: \(error)")
        }
    }

    private func unknown(_ call: IncomingCall) -> CallReply {
        SecretErrors.reply(SecretErrors.unknownMethod, "no method \(call.interface).\(call.member) at \(call.path)")
    }

    // MARK: the Service

    private func serviceCall(_ call: IncomingCall) throws -> CallReply {
        let a = call.arguments
        if call.interface == SecretServiceProvider.propertiesInterface {
            return properties(call) { ["Collections": .paths([ObjectPaths.collection, ObjectPaths.sessionCollection])] }
        }
        switch (call.member, a.count) {
        case ("OpenSession", 2): return openSession(call)
        case ("SearchItems", 1):
            guard let wanted = a[0].stringDictionary else { return invalid("SearchItems takes a{ss}") }
            let (unlocked, locked) = try search(wanted)
            return .values([.paths(unlocked), .paths(locked)])
        case ("GetSecrets", 2):
            guard let paths = a[0].elements?.compactMap(\.text), let sessionPath = a[1].text else {
                return invalid("GetSecrets takes ao, o")
            }
            return try getSecrets(paths, sessionPath: sessionPath, sender: call.sender)
        case ("Unlock", 1):
            guard let paths = a[0].elements?.compactMap(\.text) else { return invalid("Unlock takes ao") }
            return try unlock(paths)
        case ("Lock", 1):
            // The provider does not end vault's session (vault lock does): nothing is locked here.
            return .values([.paths([]), .objectPath(ObjectPaths.none)])
        case ("ReadAlias", 1):
            return .values([.objectPath(a[0].text.flatMap(ObjectPaths.alias) ?? ObjectPaths.none)])
        case ("SetAlias", 2):
            return SecretErrors.reply(SecretErrors.notSupported, "the aliases default and login name the one collection")
        case ("CreateCollection", 2):
            // One collection: a request for the default (or login) one is answered with it.
            guard let alias = a[1].text, alias.isEmpty || ObjectPaths.alias(alias) != nil else {
                return SecretErrors.reply(SecretErrors.notSupported, "vault serves one collection, login (alias default)")
            }
            return .values([.objectPath(ObjectPaths.collection), .objectPath(ObjectPaths.none)])
        default: return unknown(call)
        }
    }

    private func invalid(_ words: String) -> CallReply { SecretErrors.reply(SecretErrors.invalidArgs, words) }

    private func openSession(_ call: IncomingCall) -> CallReply {
        guard let algorithm = call.arguments[0].text else { return invalid("OpenSession takes s, v") }
        let path = nextPath(ObjectPaths.sessionPrefix)
        switch algorithm {
        case TransferSession.plain:
            sessions[path] = TransferSession(owner: call.sender, path: path, key: nil)
            return .values([.variant(.string("")), .objectPath(path)])
        case TransferSession.diffieHellman:
            guard let peer = call.arguments[1].byteArray else { return invalid("the dh-ietf1024 input is the client's public key, ay") }
            do {
                let pair = try ModpGroup2KeyPair()
                let key = try TransferSession.transferKey(sharedSecret: try pair.sharedSecret(peerPublicKey: peer))
                sessions[path] = TransferSession(owner: call.sender, path: path, key: key)
                return .values([.variant(.bytes(pair.publicKey)), .objectPath(path)])
            } catch {
                return invalid("the client's dh-ietf1024 public key is not usable")
            }
        default:
            return SecretErrors.reply(SecretErrors.notSupported, "the algorithms offered are plain and \(TransferSession.diffieHellman)")
        }
    }

    /// The session at `path`, if the caller opened it; another connection's session is refused.
    func session(_ path: String, for sender: String) -> TransferSession? {
        guard let session = sessions[path], session.owner == sender else { return nil }
        return session
    }

    private func search(_ wanted: [String: String]) throws -> (unlocked: [String], locked: [String]) {
        // While the group is locked its attributes are sealed: nothing is found (docs/SECRET-SERVICE.md).
        let inSession = sessionCollectionSearch(wanted)
        guard case .unlocked(let items) = try collection.contents() else { return (inSession, []) }
        let found = items.filter { ItemMapping.matches(ItemMapping.attributes(of: $0).attributes, wanted) }
        return (found.map { ObjectPaths.item(ItemMapping.pathElement(of: $0)) } + inSession, [])
    }

    private func getSecrets(_ paths: [String], sessionPath: String, sender: String) throws -> CallReply {
        guard let session = session(sessionPath, for: sender) else {
            return SecretErrors.reply(SecretErrors.noSession, "no session \(sessionPath) for this connection")
        }
        var entries: [(DBusValue, DBusValue)] = []
        for path in paths {
            guard case .sessionItem(let id) = ObjectPaths.target(of: path), let item = sessionCollection.item(id) else { continue }
            entries.append((.objectPath(path), try session.encode(SecretBytes(item.secret), contentType: item.contentType)))
        }
        let wantsLogin = paths.contains { if case .item = ObjectPaths.target(of: $0) { return true } else { return false } }
        guard wantsLogin else { return .values([.dictionary(key: "o", value: "(oayays)", entries)]) }
        guard case .unlocked(let items) = try collection.contents() else {
            return SecretErrors.reply(SecretErrors.isLocked, "the vault group \(settings.group.name) is locked")
        }
        for path in paths {
            guard case .item(let element) = ObjectPaths.target(of: path), let item = collection.item(atPathElement: element, in: items)
            else { continue }
            let contentType = ItemMapping.attributes(of: item).contentType
            entries.append((.objectPath(path), try session.encode(try collection.secret(of: item), contentType: contentType)))
        }
        return .values([.dictionary(key: "o", value: "(oayays)", entries)])
    }

    private func unlock(_ paths: [String]) throws -> CallReply {
        guard case .locked = try collection.contents() else { return .values([.paths(paths), .objectPath(ObjectPaths.none)]) }
        let prompt = nextPath(ObjectPaths.promptPrefix)
        prompts[prompt] = paths
        return .values([.paths([]), .objectPath(prompt)])
    }

    // MARK: sessions and prompts

    private func sessionCall(_ call: IncomingCall, path: String) -> CallReply {
        guard call.member == "Close" else { return unknown(call) }
        guard session(path, for: call.sender) != nil else {
            return SecretErrors.reply(SecretErrors.noSession, "no session \(path) for this connection")
        }
        sessions[path] = nil
        return .none
    }

    /// With a prompt program configured, `Prompt` asks through it and completes with the objects
    /// unlocked; with none (or when it fails, or on `Dismiss`), the prompt completes at once as
    /// dismissed: never a hang.
    private func promptCall(_ call: IncomingCall, path: String) -> CallReply {
        guard let objects = prompts[path] else { return SecretErrors.reply(SecretErrors.noSuchObject, "no prompt \(path)") }
        guard call.member == "Prompt" || call.member == "Dismiss" else { return unknown(call) }
        prompts[path] = nil
        if call.member == "Prompt", let ask = settings.askToUnlock, ask(), case .unlocked? = try? collection.contents() {
            bus.emit(
                path: path, interface: "org.freedesktop.Secret.Prompt", member: "Completed", [.boolean(false), .variant(.paths(objects))])
            return .none
        }
        bus.emit(path: path, interface: "org.freedesktop.Secret.Prompt", member: "Completed", [.boolean(true), .variant(.paths([]))])
        return .none
    }

    /// The names of the objects directly below `path`, for Introspect.
    private func childNames(of path: String) -> [String] {
        switch path {
        case "/": return ["org"]
        case "/org": return ["freedesktop"]
        case "/org/freedesktop": return ["secrets"]
        case ObjectPaths.service: return ["collection", "aliases"]
        case ObjectPaths.service + "/collection": return ["login", "session"]
        case ObjectPaths.service + "/aliases": return ["default", "session"]
        case ObjectPaths.sessionCollection, ObjectPaths.sessionAlias: return sessionCollection.items.map(\.id)
        case ObjectPaths.collection, ObjectPaths.defaultAlias:
            guard case .unlocked(let items)? = try? collection.contents() else { return [] }
            return items.map(ItemMapping.pathElement(of:))
        default: return []
        }
    }
}
