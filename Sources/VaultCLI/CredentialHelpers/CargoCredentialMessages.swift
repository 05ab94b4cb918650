import FoundationEssentials
import VaultCore
import VaultCrypto

/// One request of cargo's credential provider protocol (cargo 1.74 and later), one JSON line:
/// `{"v":1,"registry":{"index-url":…,"name":…},"kind":"get"|"login"|"logout",…,"args":[…]}`.
struct CargoCredentialRequest {
    enum Action {
        /// A token for `operation` (read, publish, yank, unyank, owners).
        case get(operation: String)
        /// Store `token`; nil when cargo leaves asking for it to the provider.
        case login(token: SecretBytes?)
        case logout
        /// A kind this protocol version does not name.
        case unknown(String)
    }

    static let hint = #"cargo sends one request per line, e.g. {"v":1,"registry":{"index-url":"…"},"kind":"get","operation":"read"}"#

    var indexURL: String
    var registryName: String?
    var action: Action
    /// What follows the provider's path in `credential-provider` (cargo passes no other argument).
    var args: [String]

    /// Parses one request line.
    ///
    /// - Throws: `UsageError` for invalid JSON, another protocol version, or a missing field; never naming a value.
    static func parse(_ line: SecretBytes) throws -> CargoCredentialRequest {
        let source = "the request"
        let request = try HelperJSON.parse(line, source: source, hint: hint)
        guard case .object = request else { throw UsageError("the request is not a JSON object", hint: hint) }
        guard case .number("1")? = request["v"] else {
            throw UsageError(
                "the request is not of protocol version 1", hint: "vault speaks version 1 of cargo's credential provider protocol")
        }
        let registry = request["registry"] ?? .null
        guard let indexURL = try HelperJSON.text(registry, "index-url", in: source, hint: hint) else {
            throw UsageError("the request names no registry index-url", hint: hint)
        }
        var args: [String] = []
        for element in (request["args"] ?? .array([])).elements {
            guard let text = element.text else { throw UsageError("the request's args are not all text", hint: hint) }
            args.append(text)
        }
        let action: Action
        switch try HelperJSON.text(request, "kind", in: source, hint: hint) {
        case "get"?:
            action = .get(operation: try HelperJSON.text(request, "operation", in: source, hint: hint) ?? "read")
        case "login"?:
            action = .login(token: request["token"]?.bytes)
        case "logout"?:
            action = .logout
        case let other?:
            action = .unknown(other)
        case nil:
            throw UsageError("the request has no kind", hint: hint)
        }
        return CargoCredentialRequest(
            indexURL: indexURL, registryName: try HelperJSON.text(registry, "name", in: source, hint: hint),
            action: action, args: args)
    }
}

/// The lines a cargo credential provider writes: the hello, then one reply per request.
enum CargoCredentialReply {
    /// The versions vault speaks, written first.
    static let hello = "{\"v\":[1]}\n"
    static let notFound = "{\"Err\":{\"kind\":\"not-found\"}}\n"
    static let operationNotSupported = "{\"Err\":{\"kind\":\"operation-not-supported\"}}\n"

    /// `{"Ok":{"kind":"get","token":…,"cache":…,"operation_independent":true}}`: cached for the
    /// cargo process (`session`), or until the item's expiry when it has one.
    static func token(_ secret: SecretBytes, expires: Date?) throws -> SecretBytes {
        let cache = expires.map { "{\"expires\":\(Int64($0.timeIntervalSince1970.rounded(.down)))}" } ?? "\"session\""
        return HelperJSON.plain("{\"Ok\":{\"kind\":\"get\",").appending(try HelperJSON.secretMember("token", secret))
            .appending(HelperJSON.plain(",\"cache\":\(cache),\"operation_independent\":true}}\n"))
    }

    /// `{"Ok":{"kind":KIND}}` for a login or a logout done.
    static func done(_ kind: String) -> String { "{\"Ok\":{\"kind\":\(ItemOutput.jsonString(kind))}}\n" }

    /// `{"Err":{"kind":"other","message":…}}`: cargo shows the message; it holds no secret (`ErrorReport`'s words).
    static func other(_ message: String) -> String {
        "{\"Err\":{\"kind\":\"other\",\"message\":\(ItemOutput.jsonString(message))}}\n"
    }
}
