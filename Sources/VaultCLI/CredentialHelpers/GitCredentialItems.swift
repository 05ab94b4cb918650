import VaultCore
import VaultCrypto

/// Where a git credential lives: an item whose service is
/// `git:PROTOCOL://HOST[/PATH]` and whose account is the user name.
struct GitCredentialLocation: Equatable {
    var scheme: String
    /// Host with its port, as git sends it; may be empty (e.g. `cert:///path`).
    var host: String
    /// Path without its leading slash, as git sends it with credential.useHttpPath.
    var path: String?

    static let servicePrefix = "git:"

    var service: String { GitCredentialLocation.servicePrefix + scheme + "://" + host + (path.map { "/" + $0 } ?? "") }

    init(scheme: String, host: String, path: String?) {
        self.scheme = scheme
        self.host = host
        self.path = path
    }

    /// The location an item's service names, or nil when it is not a git credential's.
    init?(service: String) {
        guard service.hasPrefix(GitCredentialLocation.servicePrefix),
            let separator = service.firstRange(of: "://")
        else { return nil }
        scheme = String(
            service[service.index(service.startIndex, offsetBy: GitCredentialLocation.servicePrefix.count)..<separator.lowerBound])
        let rest = service[separator.upperBound...]
        if let slash = rest.firstIndex(of: "/") {
            host = String(rest[..<slash])
            path = String(rest[rest.index(after: slash)...])
        } else {
            host = String(rest)
            path = nil
        }
        guard !scheme.isEmpty else { return nil }
    }

    /// The location a request names: it needs a protocol, and a host or a path.
    init?(request: GitCredentialMessage) {
        guard let scheme = request.text("protocol") else { return nil }
        let host = request.text("host"), path = request.text("path")
        guard host != nil || path != nil else { return nil }
        self.init(scheme: scheme, host: host ?? "", path: path)
    }
}

/// git's credential operations over the ordinary items of one access group,
/// matching as git's own store helper does: protocol and host must match, and
/// path and user name when the request has them.
///
/// The item's secret is the password; attributes git documents as public
/// (`password_expiry_utc`) are kept in the item's generic attribute as
/// `key=value` lines; every other attribute (e.g. `oauth_refresh_token`, and
/// any git adds later) follows the password in the secret, one `key=value`
/// per line, as git-credential-libsecret keeps it. Request-only attributes
/// are not stored.
struct GitCredentialItems {
    let store: ItemStore
    let group: AccessGroup
    /// The class of new items; a replaced item keeps its own when nil.
    let accessibility: Accessibility?

    static let identityKeys: Set<String> = ["protocol", "host", "path", "username", "password"]
    static let publicKeys: Set<String> = ["password_expiry_utc"]
    static let requestOnlyKeys: Set<String> = ["url", "wwwauth[]", "capability[]", "state[]", "quit", "continue", "ephemeral"]
    static let kind = "git credential"

    /// The newest matching credential with every attribute stored for it, or nil.
    func get(_ request: GitCredentialMessage) throws -> GitCredentialMessage? {
        guard let location = GitCredentialLocation(request: request),
            let match = try matches(location, username: request.text("username")).first
        else { return nil }
        let item = try store.item(matching: Query(service: match.service, account: match.account, group: group))
        let stored = GitCredentialLocation(service: match.service) ?? location
        var reply = GitCredentialMessage()
        reply.append("protocol", stored.scheme)
        reply.append("host", stored.host)
        if let path = stored.path { reply.append("path", path) }
        reply.append("username", match.account)
        let (password, secretAttributes) = GitCredentialItems.splitSecret(item.secret)
        reply.append("password", password)
        for line in GitCredentialItems.lines(of: match.details.generic ?? "") where GitCredentialItems.publicKeys.contains(line.key) {
            reply.append(line.key, line.value)
        }
        // The secret's text is its writer's: where and as whom the credential applies comes from
        // the item's service and account only, never from a line of the secret.
        reply.attributes += secretAttributes.filter { GitCredentialItems.mayComeFromSecret($0.key) }
        try reply.validateForOutput()
        return reply
    }

    /// Whether an attribute kept in a secret's text may be given back: not one that says which
    /// credential this is (protocol, host, path, username, password, url), nor one of a request.
    static func mayComeFromSecret(_ key: String) -> Bool {
        !identityKeys.contains(key) && !requestOnlyKeys.contains(key)
    }

    /// Stores the credential, replacing what matches it; a request without
    /// protocol, host, user name or password is ignored, as git's store helper
    /// does. An empty user name or password given as `username=` is stored, as
    /// git-credential-libsecret does.
    func store(_ request: GitCredentialMessage) throws {
        guard let location = GitCredentialLocation(request: request),
            let username = request.storedValue("username").map({ String(decoding: $0.copyBytes(), as: UTF8.self) }),
            let password = request.storedValue("password")
        else { return }
        let matching = try matches(location, username: username)
        let existing = matching.first { $0.service == location.service && $0.account == username }
        var details = existing?.details ?? ItemDetails()
        details.kind = details.kind ?? GitCredentialItems.kind
        let publicLines = request.attributes.filter { GitCredentialItems.publicKeys.contains($0.key) }
        details.generic =
            publicLines.isEmpty ? nil : publicLines.map { "\($0.key)=\(String(decoding: $0.value.copyBytes(), as: UTF8.self))\n" }.joined()
        let secretAttributes = request.attributes.filter {
            GitCredentialItems.mayComeFromSecret($0.key) && !GitCredentialItems.publicKeys.contains($0.key)
        }
        let item = NewItem(
            service: location.service, account: username, group: group,
            accessibility: accessibility ?? existing?.accessibility ?? .default,
            details: details, secret: GitCredentialItems.joinSecret(password, secretAttributes))
        let others = matching.filter { $0.service != item.service || $0.account != item.account }
        // git stores after every successful login: an unchanged credential is not written again,
        // which also keeps a read-only scoped credential working.
        if let existing, others.isEmpty, try store.holds(item, as: existing) { return }
        _ = try store.add(item, replaceExisting: true)
        for other in others {
            _ = try store.delete(matching: Query(service: other.service, account: other.account, group: group), allMatching: false)
        }
    }

    /// Erases every matching credential (and, when the request has a password,
    /// only those with that password); returns how many.
    @discardableResult
    func erase(_ request: GitCredentialMessage) throws -> Int {
        guard let location = GitCredentialLocation(request: request) else { return 0 }
        var erased = 0
        for match in try matches(location, username: request.text("username")) {
            let query = Query(service: match.service, account: match.account, group: group)
            if let wanted = request.value("password") {
                let (password, _) = GitCredentialItems.splitSecret(try store.item(matching: query).secret)
                guard password.constantTimeEquals(wanted) else { continue }
            }
            erased += try store.delete(matching: query, allMatching: false).count
        }
        return erased
    }

    /// The group's items that match, newest first (git's store helper puts the newest first too).
    private func matches(_ location: GitCredentialLocation, username: String?) throws -> [ItemAttributes] {
        try store.helperItems(matching: Query(group: group)).filter { item in
            guard let stored = GitCredentialLocation(service: item.service) else { return false }
            return stored.scheme == location.scheme && stored.host == location.host
                && (location.path == nil || stored.path == location.path)
                && (username == nil || item.account == username)
        }.newestFirst()
    }

    /// The password (up to the first line break) and the `key=value` lines after it.
    static func splitSecret(_ secret: SecretBytes) -> (SecretBytes, [GitCredentialMessage.Attribute]) {
        secret.withUnsafeBytes { bytes in
            let end = bytes.firstIndex(of: 0x0A) ?? bytes.count
            var passwordEnd = end
            if passwordEnd > 0, bytes[passwordEnd - 1] == 0x0D { passwordEnd -= 1 }
            let password = SecretBytes(UnsafeRawBufferPointer(rebasing: bytes[0..<passwordEnd]))
            guard end < bytes.count else { return (password, []) }
            let rest = UnsafeRawBufferPointer(rebasing: bytes[(end + 1)...])
            // Lines a person added by hand that are not key=value are skipped, not an error.
            var attributes: [GitCredentialMessage.Attribute] = []
            var start = 0
            while start < rest.count {
                let lineEnd = rest[start...].firstIndex(of: 0x0A) ?? rest.count
                let line = UnsafeRawBufferPointer(rebasing: rest[start..<lineEnd])
                if let equals = line.firstIndex(of: UInt8(ascii: "=")), equals > 0 {
                    attributes.append(
                        .init(
                            key: String(decoding: line[0..<equals], as: UTF8.self),
                            value: SecretBytes(UnsafeRawBufferPointer(rebasing: line[(equals + 1)...]))))
                }
                start = lineEnd + 1
            }
            return (password, attributes)
        }
    }

    /// The password followed by `\nkey=value` for each attribute.
    static func joinSecret(_ password: SecretBytes, _ attributes: [GitCredentialMessage.Attribute]) -> SecretBytes {
        guard !attributes.isEmpty else { return password }
        let lines = GitCredentialMessage(attributes: attributes).serialized()
        // serialized() ends with a newline; the secret ends with the last value.
        let body = lines.withUnsafeBytes { SecretBytes(UnsafeRawBufferPointer(rebasing: $0[0..<($0.count - 1)])) }
        return password.appending(SecretBytes([0x0A])).appending(body)
    }

    /// The `key=value` lines of a text attribute.
    static func lines(of text: String) -> [(key: String, value: String)] {
        text.split(separator: "\n").compactMap { line in
            guard let equals = line.firstIndex(of: "="), equals > line.startIndex else { return nil }
            return (String(line[..<equals]), String(line[line.index(after: equals)...]))
        }
    }
}
