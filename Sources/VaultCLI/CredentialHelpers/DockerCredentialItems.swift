import VaultCore
import VaultCrypto

/// One registry login as the docker-credential-helpers protocol sends it.
struct DockerCredential {
    var serverURL: String
    var username: String
    var secret: SecretBytes

    /// The login in `store`'s input: `{"ServerURL": …, "Username": …, "Secret": …}`,
    /// field names matched without regard to case as Go's JSON decoder does;
    /// other fields are ignored.
    ///
    /// - Throws: `UsageError` for invalid JSON, a missing field, or a line break in a value.
    static func parse(_ input: UnsafeRawBufferPointer) throws -> DockerCredential {
        let members = try FlatJSON.parseObject(input)
        func field(_ name: String) throws -> SecretBytes {
            guard let value = members.last(where: { $0.key.lowercased() == name.lowercased() })?.value, value.count > 0 else {
                throw UsageError("the input has no \(name)", hint: "send {\"ServerURL\":\"…\",\"Username\":\"…\",\"Secret\":\"…\"}")
            }
            if value.withUnsafeBytes({ $0.contains { $0 == 0x0A || $0 == 0x0D || $0 == 0 } }) {
                throw UsageError("the \(name) holds a line break or NUL byte", hint: "send it as one line of text")
            }
            return value
        }
        let serverURL = String(decoding: try field("ServerURL").copyBytes(), as: UTF8.self)
        let username = String(decoding: try field("Username").copyBytes(), as: UTF8.self)
        return DockerCredential(serverURL: serverURL, username: username, secret: try field("Secret"))
    }

    /// The server URL `get` and `erase` read: the whole input less surrounding
    /// whitespace (docker sends it with no newline, a person types one).
    ///
    /// - Throws: `UsageError` for an empty URL, a NUL byte or a line break inside it.
    static func serverURL(_ input: UnsafeRawBufferPointer) throws -> String {
        var start = 0, end = input.count
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        while start < end, isSpace(input[start]) { start += 1 }
        while end > start, isSpace(input[end - 1]) { end -= 1 }
        let url = UnsafeRawBufferPointer(rebasing: input[start..<end])
        guard !url.isEmpty else {
            throw UsageError("no credentials server URL", hint: "send the registry's server URL on stdin, e.g. https://index.docker.io/v1/")
        }
        if url.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0 }) {
            throw UsageError("the server URL holds a line break or NUL byte", hint: "send one server URL on one line")
        }
        guard let text = String(validating: url, as: UTF8.self) else {
            throw UsageError("the server URL is not UTF-8 text", hint: "send one server URL on one line")
        }
        return text
    }

    /// `get`'s output: the JSON object docker reads, one line.
    func json() throws -> SecretBytes {
        let secretLiteral = try secret.withUnsafeBytes { (bytes) in try FlatJSON.stringLiteral(bytes, field: "secret") }
        let head = SecretBytes(
            Array("{\"ServerURL\":\(ItemOutput.jsonString(serverURL)),\"Username\":\(ItemOutput.jsonString(username)),\"Secret\":".utf8))
        return head.appending(secretLiteral).appending(SecretBytes(Array("}\n".utf8)))
    }
}

/// docker's credential operations over the ordinary items of one access
/// group: service `docker:SERVERURL`, account the user name, secret the
/// password or identity token. One login per server, as docker keeps it.
struct DockerCredentialItems {
    let store: ItemStore
    let group: AccessGroup
    /// The class of new items; a replaced item keeps its own when nil.
    let accessibility: Accessibility?

    static let servicePrefix = "docker:"
    static let kind = "docker credential"

    /// Stores the login, replacing any other login for the same server.
    func store(_ credential: DockerCredential) throws {
        let service = DockerCredentialItems.servicePrefix + credential.serverURL
        let existing = try logins(service: service)
        let same = existing.first { $0.account == credential.username }
        var details = same?.details ?? ItemDetails()
        details.kind = details.kind ?? DockerCredentialItems.kind
        let item = NewItem(
            service: service, account: credential.username, group: group,
            accessibility: accessibility ?? same?.accessibility ?? .default,
            details: details, secret: credential.secret)
        // docker stores after every login: an unchanged login is not written again.
        if let same, existing.count == 1, try store.holds(item, as: same) { return }
        _ = try store.add(item, replaceExisting: true)
        for other in existing where other.account != credential.username {
            _ = try store.delete(matching: Query(service: service, account: other.account, group: group), allMatching: false)
        }
    }

    /// The newest login for the server. Throws `itemNotFound` when there is none.
    func get(serverURL: String) throws -> DockerCredential {
        let service = DockerCredentialItems.servicePrefix + serverURL
        guard let newest = try logins(service: service).first else {
            throw VaultError.itemNotFound(Query(service: service, group: group))
        }
        let item = try store.item(matching: Query(service: service, account: newest.account, group: group))
        return DockerCredential(serverURL: serverURL, username: newest.account, secret: item.secret)
    }

    /// Erases the server's logins. Throws `itemNotFound` when there is none.
    func erase(serverURL: String) throws {
        let service = DockerCredentialItems.servicePrefix + serverURL
        guard try !store.delete(matching: Query(service: service, group: group), allMatching: true).isEmpty else {
            throw VaultError.itemNotFound(Query(service: service, group: group))
        }
    }

    /// Every server with its user name (the newest login of each).
    func list() throws -> [(serverURL: String, username: String)] {
        var seen: Set<String> = []
        return try store.helperItems(matching: Query(group: group)).newestFirst().compactMap { item in
            guard item.service.hasPrefix(DockerCredentialItems.servicePrefix), seen.insert(item.service).inserted else { return nil }
            return (String(item.service.dropFirst(DockerCredentialItems.servicePrefix.count)), item.account)
        }.sorted { $0.serverURL < $1.serverURL }
    }

    /// `list`'s output: `{"SERVERURL":"USERNAME",…}`.
    static func listJSON(_ logins: [(serverURL: String, username: String)]) -> String {
        "{" + logins.map { "\(ItemOutput.jsonString($0.serverURL)):\(ItemOutput.jsonString($0.username))" }.joined(separator: ",") + "}\n"
    }

    private func logins(service: String) throws -> [ItemAttributes] {
        try store.helperItems(matching: Query(service: service, group: group)).newestFirst()
    }
}
