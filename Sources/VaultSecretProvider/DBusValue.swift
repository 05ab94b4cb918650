/// One D-Bus value, as the provider reads it from a call or writes it into a reply.
indirect enum DBusValue: Sendable {
    case byte(UInt8)
    case boolean(Bool)
    case uint32(UInt32)
    case uint64(UInt64)
    case string(String)
    case objectPath(String)
    /// `ay`, read and written as one block.
    case bytes([UInt8])
    /// `a` of `element` (the element's signature, needed when the array is empty).
    case array(element: String, [DBusValue])
    /// `a{…}`, entries in order.
    case dictionary(key: String, value: String, [(DBusValue, DBusValue)])
    case structure([DBusValue])
    case variant(DBusValue)

    /// The value's D-Bus type signature.
    var signature: String {
        switch self {
        case .byte: return "y"
        case .boolean: return "b"
        case .uint32: return "u"
        case .uint64: return "t"
        case .string: return "s"
        case .objectPath: return "o"
        case .bytes: return "ay"
        case .array(let element, _): return "a" + element
        case .dictionary(let key, let value, _): return "a{" + key + value + "}"
        case .structure(let fields): return "(" + fields.map(\.signature).joined() + ")"
        case .variant: return "v"
        }
    }

    /// An `ao` of these paths.
    static func paths(_ paths: [String]) -> DBusValue { .array(element: "o", paths.map { .objectPath($0) }) }

    /// An `a{ss}` of these attributes, in key order.
    static func attributes(_ attributes: [String: String]) -> DBusValue {
        .dictionary(key: "s", value: "s", attributes.sorted { $0.key < $1.key }.map { (.string($0.key), .string($0.value)) })
    }

    /// An `a{sv}` of these properties.
    static func properties(_ properties: [(String, DBusValue)]) -> DBusValue {
        .dictionary(key: "s", value: "v", properties.map { (.string($0.0), .variant($0.1)) })
    }

    var text: String? {
        switch self {
        case .string(let value), .objectPath(let value): return value
        case .variant(let inner): return inner.text
        default: return nil
        }
    }

    var flag: Bool? {
        switch self {
        case .boolean(let value): return value
        case .variant(let inner): return inner.flag
        default: return nil
        }
    }

    var byteArray: [UInt8]? {
        switch self {
        case .bytes(let bytes): return bytes
        case .array(_, let elements) where elements.isEmpty: return []
        case .variant(let inner): return inner.byteArray
        default: return nil
        }
    }

    /// The elements of an array (`ao`, `as` …).
    var elements: [DBusValue]? {
        switch self {
        case .array(_, let elements): return elements
        case .bytes(let bytes): return bytes.map { .byte($0) }
        case .variant(let inner): return inner.elements
        default: return nil
        }
    }

    /// An `a{ss}` (or `a{sv}` of strings) as a dictionary; nil for anything else.
    var stringDictionary: [String: String]? {
        switch self {
        case .dictionary(_, _, let entries):
            var result: [String: String] = [:]
            for (key, value) in entries {
                guard let key = key.text, let value = value.text else { return nil }
                result[key] = value
            }
            return result
        case .array(_, let elements) where elements.isEmpty: return [:]
        case .variant(let inner): return inner.stringDictionary
        default: return nil
        }
    }

    /// The entries of an `a{sv}` by name.
    var propertyMap: [String: DBusValue]? {
        switch self {
        case .dictionary(_, _, let entries):
            var result: [String: DBusValue] = [:]
            for (key, value) in entries {
                guard let key = key.text else { return nil }
                result[key] = value
            }
            return result
        case .array(_, let elements) where elements.isEmpty: return [:]
        default: return nil
        }
    }
}
