import FoundationEssentials
import VaultCrypto

/// Any `Codable` value as an item's secret, as JSON: what SAP's
/// CodableStorage gives iOS apps over the Keychain. An item holds one value
/// under (group, service, account); its `kind` attribute is `json`.
extension ItemStore {
    /// Stores `value`, encoded as JSON, as the secret of the item (`group`,
    /// `service`, `account`), with class `accessibility` and kind `json`.
    /// Replaces an item with that key, keeping its created date (like
    /// `add(_:replaceExisting: true)`), and says whether it replaced one.
    /// The JSON is wiped from memory once sealed; the encoder's own working
    /// copies cannot be. Throws `CodableItemError` when `value` does not
    /// encode (a non-finite number, a failing `encode(to:)`), and what `add` throws.
    @discardableResult
    public func set<Value: Encodable>(
        _ value: Value, service: String, account: String, group: AccessGroup = .default,
        accessibility: Accessibility = .default
    ) throws -> AddOutcome {
        let key = ItemKey(group: group, service: service, account: account)
        let secret: SecretBytes
        do {
            var json = try JSONEncoder().encode(value)
            defer { json.resetBytes(in: 0..<json.count) }
            secret = json.withUnsafeBytes { SecretBytes($0) }
        } catch let error as EncodingError {
            throw CodableItemError(key: key, type: "\(Value.self)", operation: .encoding, problem: CodableItemError.problem(error))
        }
        let item = NewItem(
            service: service, account: account, group: group, accessibility: accessibility,
            details: ItemDetails(kind: ItemDetails.jsonKind), secret: secret)
        return try add(item, replaceExisting: true)
    }

    /// The value stored by `set` as the secret of the item (`group`,
    /// `service`, `account`), decoded from JSON straight out of the secret's
    /// buffer. Throws `VaultError.itemNotFound` when there is no such item,
    /// `CodableItemError` when its secret is not the JSON of a `Value` (an
    /// item stored as raw bytes, or of another type), and what `item(matching:)` throws.
    public func value<Value: Decodable>(
        _ type: Value.Type, service: String, account: String,
        group: AccessGroup = .default
    ) throws -> Value {
        let item = try item(matching: Query(service: service, account: account, group: group))
        do {
            return try item.secret.withUnsafeBytes { buffer in
                // The decoder reads the locked buffer in place: no unwiped copy of the JSON.
                let json = Data(
                    bytesNoCopy: UnsafeMutableRawPointer(mutating: buffer.baseAddress!), count: buffer.count,
                    deallocator: .none)
                return try JSONDecoder().decode(Value.self, from: json)
            }
        } catch let error as DecodingError {
            throw CodableItemError(
                key: item.attributes.key, type: "\(Value.self)", operation: .decoding,
                problem: CodableItemError.problem(error))
        }
    }
}

extension ItemDetails {
    /// The kind of the items `set(_:service:account:group:accessibility:)` stores: their secret is JSON.
    public static let jsonKind = "json"
}

/// A value `set` could not encode as JSON, or an item whose secret `value`
/// could not decode as the type asked for. It names the item, the type and
/// what went wrong in the JSON's structure (a key, a path, a JSON type), never
/// a value from the secret: facts, which the command line words. Its status is `Status.decode`.
public struct CodableItemError: Error, Equatable, Sendable {
    /// Which way the conversion failed.
    public enum Operation: Sendable {
        /// A value to JSON, in `set`.
        case encoding
        /// An item's secret to a value, in `value`.
        case decoding
    }

    /// What is wrong in the JSON's structure. A `path` is a coding path written as `$.hosts[0]`
    /// (`$` alone: the top level); a `type` is the Swift type's name, e.g. `String`.
    public enum Problem: Equatable, Sendable {
        /// The secret is not JSON.
        case notJSON
        /// The object at `path` lacks the key `key`.
        case keyMissing(String, at: String)
        /// `null` at `path`, where a value of `type` is expected.
        case nullWhereExpected(type: String, at: String)
        /// The value at `path` is not of `type`.
        case typeMismatch(type: String, at: String)
        /// The value at `path` is JSON of the right type that its type's decoder refuses.
        case doesNotDecode(at: String)
        /// The value at `path` has no JSON form (a NaN or infinite number).
        case noJSONForm(at: String)
        /// The coder failed in a way this version of vault does not know.
        case unknown
    }

    /// The item stored or read.
    public var key: ItemKey
    /// The Swift type asked for, e.g. `DatabaseLogin`.
    public var type: String
    /// Whether it was `set` (encoding) or `value` (decoding) that failed.
    public var operation: Operation
    /// What is wrong, e.g. `.notJSON` or `.keyMissing("port", at: "$")`.
    public var problem: Problem

    /// An error of `operation` on the item `key` as `type`, for `problem`.
    package init(key: ItemKey, type: String, operation: Operation, problem: Problem) {
        self.key = key
        self.type = type
        self.operation = operation
        self.problem = problem
    }

    /// The status of this error: `decode` (errSecDecode, exit 93).
    public var status: Status { .decode }

    /// What a decoding error says about the JSON's structure, without its values
    /// (the decoder's own descriptions may quote a number from the secret).
    static func problem(_ error: DecodingError) -> Problem {
        switch error {
        case .keyNotFound(let key, let context):
            return .keyMissing(key.stringValue, at: path(context.codingPath))
        case .valueNotFound(let type, let context):
            return .nullWhereExpected(type: "\(type)", at: path(context.codingPath))
        case .typeMismatch(let type, let context):
            return .typeMismatch(type: "\(type)", at: path(context.codingPath))
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? .notJSON : .doesNotDecode(at: path(context.codingPath))
        @unknown default:
            return .unknown
        }
    }

    /// What an encoding error says, without the value.
    static func problem(_ error: EncodingError) -> Problem {
        switch error {
        case .invalidValue(_, let context):
            return .noJSONForm(at: path(context.codingPath))
        @unknown default:
            return .unknown
        }
    }

    /// A coding path as `$.servers[0].port`.
    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.reduce("$") { path, key in key.intValue.map { "\(path)[\($0)]" } ?? "\(path).\(key.stringValue)" }
    }
}
