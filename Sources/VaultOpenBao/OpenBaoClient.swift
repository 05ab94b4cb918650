import VaultCore
import VaultCrypto

/// The few calls of OpenBao's HTTP API vault makes: a KV v2 read and list, an AppRole login, an
/// unwrap. No call asks the server what the token may do or what a mount is (no `lookup-self`,
/// `sys/capabilities-self` or KV-version probe): a restricted token makes exactly the reads it is asked for.
public struct OpenBaoClient {
    /// Where the server is.
    public let endpoint: Endpoint
    /// The token sent as X-Vault-Token, or nil before a login.
    public let token: SecretBytes?
    /// The mounts configured as KV v1 (no `data/` or `metadata/` in their paths, no versions); every other is KV v2.
    public let kvVersion1Mounts: Set<String>

    /// A client of `endpoint` with `token`, reading the mounts of `kvVersion1Mounts` as KV v1.
    public init(endpoint: Endpoint, token: SecretBytes?, kvVersion1Mounts: Set<String> = []) {
        self.endpoint = endpoint
        self.token = token
        self.kvVersion1Mounts = kvVersion1Mounts
    }

    /// The fields of the secret at `path` in `mount` (for KV v2 its latest version, or `version`), by name.
    /// Throws `noSuchPath` for 404 (a deleted or destroyed version too), and the errors of `request`.
    public func readSecret(mount: String, path: String, version: Int?) throws -> [String: SecretBytes] {
        let versionOne = kvVersion1Mounts.contains(mount)
        let apiPath = versionOne ? "\(mount)/\(path)" : "\(mount)/data/\(path)"
        let query = version.map { "?version=\($0)" } ?? ""
        let answer = try request("GET", apiPath, query: query, notFound: .noSuchPath(path: "\(mount)/\(path)", version: version))
        guard case .object(let members)? = versionOne ? answer["data"] : answer["data"]?["data"] else {
            throw OpenBaoError.missingInAnswer(path: apiPath, part: versionOne ? "data" : "data.data")
        }
        var fields: [String: SecretBytes] = [:]
        for (name, value) in members where fields[name] == nil {
            switch value {
            case .string(let bytes): fields[name] = bytes
            case .number(let text): fields[name] = SecretBytes(Array(text.utf8))
            case .bool(let flag): fields[name] = SecretBytes(Array((flag ? "true" : "false").utf8))
            default: throw OpenBaoError.fieldNotText(path: "\(mount)/\(path)", field: name)
            }
        }
        return fields
    }

    /// The keys directly under `prefix` in `mount` (a key ending in "/" is a folder); empty when there are none.
    public func list(mount: String, prefix: String) throws -> [String] {
        let folder = prefix.isEmpty || prefix.hasSuffix("/") ? prefix : prefix + "/"
        let answer: JSONTree
        do {
            let apiPath = kvVersion1Mounts.contains(mount) ? "\(mount)/\(folder)" : "\(mount)/metadata/\(folder)"
            answer = try request("LIST", apiPath, query: "", notFound: .noSuchPath(path: "\(mount)/\(folder)", version: nil))
        } catch OpenBaoError.noSuchPath {
            return []
        }
        return answer["data"]?["keys"]?.elements.compactMap(\.text) ?? []
    }

    /// Logs in with AppRole at `mount` (usually "approle"): the client token.
    public func appRoleLogin(mount: String, roleID: String, secretID: SecretBytes) throws -> SecretBytes {
        var body = SecretBytesBuilder()
        body.append("{\"role_id\":\(OpenBaoClient.jsonString(roleID)),\"secret_id\":\"")
        secretID.withUnsafeBytes { body.append($0, escaping: OpenBaoClient.jsonEscape) }
        body.append("\"}")
        let path = "auth/\(mount)/login"
        let answer = try request("POST", path, query: "", body: body.finish(), notFound: .unexpectedStatus(path: path, status: 404))
        guard let token = answer["auth"]?["client_token"]?.bytes else {
            throw OpenBaoError.missingInAnswer(path: path, part: "auth.client_token")
        }
        return token
    }

    /// Unwraps a response-wrapping token (single use): the wrapped answer's `data.<field>`.
    public func unwrap(field: String) throws -> SecretBytes {
        let path = "sys/wrapping/unwrap"
        let answer = try request(
            "POST", path, query: "", body: SecretBytes(Array("{}".utf8)), notFound: .unexpectedStatus(path: path, status: 404))
        guard let value = answer["data"]?[field]?.bytes else { throw OpenBaoError.missingInAnswer(path: path, part: "data.\(field)") }
        return value
    }

    /// One API call: the answer's JSON for 2xx; 403, 404, 503 and the rest as errors.
    private func request(
        _ method: String, _ apiPath: String, query: String, body: SecretBytes? = nil,
        notFound: OpenBaoError
    ) throws -> JSONTree {
        var headers: [(String, SecretBytes)] = []
        if let token { headers.append(("X-Vault-Token", token)) }
        if let namespace = endpoint.namespace { headers.append(("X-Vault-Namespace", SecretBytes(Array(namespace.utf8)))) }
        let target = "/v1/" + OpenBaoClient.percentEncodedPath(apiPath) + query
        let response = try HTTPExchange.send(method, target, headers: headers, body: body, to: endpoint)
        let answer = try? JSONTree.parse(response.body, origin: .named(apiPath))
        switch response.status {
        case 200..<300:
            guard let answer else { throw OpenBaoError.malformedResponse(address: endpoint.address.description, fault: .body) }
            return answer
        case 403:
            // The server checks the token before any policy, and says only "permission denied" when
            // it does not know it; a policy's refusal comes wrapped in a list of errors. Its words
            // are the only sign of which it was (no call may be made to ask: see the type's comment).
            let errors = answer?["errors"]?.elements.compactMap(\.text) ?? []
            if errors == ["permission denied"] { throw OpenBaoError.badToken(address: endpoint.address.description) }
            throw OpenBaoError.permissionDenied(path: apiPath)
        case 404: throw notFound
        case 503 where OpenBaoClient.saysSealed(answer):
            throw OpenBaoError.sealed(address: endpoint.address.description)
        default: throw OpenBaoError.unexpectedStatus(path: apiPath, status: response.status)
        }
    }

    /// Whether a 503's errors name the seal (a standby or an overloaded server answers 503 too).
    private static func saysSealed(_ answer: JSONTree?) -> Bool {
        (answer?["errors"]?.elements.compactMap(\.text) ?? []).contains { $0.lowercased().contains("sealed") }
    }

    /// `path` with every byte but unreserved ones and "/" percent-encoded.
    static func percentEncodedPath(_ path: String) -> String {
        var encoded = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded
            }
        }
        return encoded
    }

    /// `text` as a JSON string literal.
    static func jsonString(_ text: String) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "\"")]
        for byte in text.utf8 { bytes += jsonEscape(byte).map { Array($0.utf8) } ?? [byte] }
        return String(decoding: bytes + [UInt8(ascii: "\"")], as: UTF8.self)
    }

    /// JSON's escape of a byte, nil for one written as it is.
    static func jsonEscape(_ byte: UInt8) -> String? {
        switch byte {
        case UInt8(ascii: "\""): return "\\\""
        case UInt8(ascii: "\\"): return "\\\\"
        case 0..<0x20: return "\\u00" + String(byte, radix: 16).leftPadded
        default: return nil
        }
    }
}

extension String {
    fileprivate var leftPadded: String { count == 1 ? "0" + self : self }
}
