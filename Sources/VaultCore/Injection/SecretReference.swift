/// A reference to one item's secret, as written in environment variables,
/// env files and templates: `vault://[GROUP/]SERVICE/ACCOUNT[?otp]`.
///
/// Two segments are a service and an account; three are a group, a service
/// and an account. In a name, `%`, `/`, `?`, `#`, whitespace and control
/// characters must be percent-encoded (`%25`, `%2F`, `%3F`, `%23`, `%20` …);
/// any other byte may be. A `?` ends the names and starts a query: `?otp`
/// stands for the item's current one-time code instead of its secret, and
/// no other query is accepted. `#` is reserved for later use. An empty
/// account is written as nothing after the last slash: `vault://svc/`.
package struct SecretReference: Hashable, Sendable, CustomStringConvertible {
    /// The group to search, or nil for the caller's default (every group it can open).
    package var group: AccessGroup?
    /// The item's service.
    package var service: String
    /// The item's account (may be empty).
    package var account: String
    /// What the reference stands for: the secret, or its one-time code (`?otp`).
    package var part: Part = .secret

    /// What of the item a reference stands for.
    package enum Part: String, Hashable, Sendable {
        /// The item's secret, exactly.
        case secret
        /// The item's current one-time code (`?otp`): see `ItemStore.oneTimeCode`.
        case oneTimeCode = "otp"
    }

    /// What every reference starts with.
    package static let scheme = "vault://"

    /// A reference to the item with this service and account (in `group`, when given).
    package init(group: AccessGroup? = nil, service: String, account: String) {
        self.group = group
        self.service = service
        self.account = account
    }

    /// Whether `text` is meant as a reference, valid or not: it starts with `vault:/`, so one
    /// that lacks a slash (`vault:/github/ci-bot`) is refused, not passed on as text.
    package static func isReference(_ text: String) -> Bool {
        text.hasPrefix("vault:/")
    }

    /// Parses a reference; throws `SecretReferenceError` naming what is wrong.
    package init(parsing text: String) throws(SecretReferenceError) {
        guard text.hasPrefix(SecretReference.scheme) else { throw .missingScheme }
        var path = text.dropFirst(SecretReference.scheme.count)
        if let questionMark = path.firstIndex(of: "?") {
            let query = String(path[path.index(after: questionMark)...])
            guard query == Part.oneTimeCode.rawValue else {
                if query.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) { throw .unencodedSpace }
                throw .unknownQuery(query)
            }
            part = .oneTimeCode
            path = path[..<questionMark]
        }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard segments.count == 2 || segments.count == 3 else { throw .segmentCount(segments.count) }
        let names = try segments.map { segment throws(SecretReferenceError) in try SecretReference.decode(segment) }
        if names.count == 3 {
            guard let group = AccessGroup(names[0]) else { throw .invalidGroup(names[0]) }
            self.group = group
        }
        service = names[names.count - 2]
        account = names[names.count - 1]
        guard !service.isEmpty else { throw .emptyService }
    }

    /// Parses an item's name as commands take it: `SERVICE/ACCOUNT`,
    /// `GROUP/SERVICE/ACCOUNT`, or a whole reference `vault://…`, with the
    /// same segments and percent-encoding as `init(parsing:)`; throws
    /// `SecretReferenceError` naming what is wrong. Outside a `vault://`
    /// reference a space may be typed as it is (the shell's quotes hold the
    /// name together), and a service that is a URL (the git helper's
    /// `git:https://host/user`) keeps its slashes: the last one ends it.
    package init(parsingName text: String) throws(SecretReferenceError) {
        if SecretReference.isReference(text) {
            try self.init(parsing: text)
            return
        }
        let spelled = text.split(separator: " ", omittingEmptySubsequences: false).joined(separator: "%20")
        if let slash = spelled.lastIndex(of: "/"), spelled[..<slash].contains("://") {
            let account = try SecretReference.decode(String(spelled[spelled.index(after: slash)...]))
            self.init(service: try SecretReference.decode(String(spelled[..<slash])), account: account)
            return
        }
        try self.init(parsing: SecretReference.scheme + spelled)
    }

    /// The reference in its canonical spelling, with reserved characters encoded.
    package var description: String {
        SecretReference.scheme + shortName + (part == .secret ? "" : "?" + part.rawValue)
    }

    /// The names as commands take them, `[GROUP/]SERVICE/ACCOUNT` with
    /// reserved characters encoded: no scheme, no query.
    package var shortName: String {
        let names = (group.map { [$0.name] } ?? []) + [service, account]
        return names.map(SecretReference.encode).joined(separator: "/")
    }

    /// The query that finds the item: the reference's own group, else `defaultGroup`.
    package func query(defaultGroup: AccessGroup?) -> Query {
        Query(service: service, account: account, group: group ?? defaultGroup)
    }

    // MARK: percent-encoding

    private static func mustEncode(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte == 0x7F || byte == UInt8(ascii: "%") || byte == UInt8(ascii: "/")
            || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// `name` with the bytes that `mustEncode` names, and every byte of a character
    /// `HiddenCharacters.mustShow` names (C1, bidirectional and other format characters), written as `%XX`.
    /// One name percent-encoded as in a reference (for `OpenBaoReference` too).
    static func encodeSegment(_ name: String) -> String { encode(name) }

    /// One segment percent-decoded; throws as `init(parsing:)` does.
    static func decodeSegment(_ segment: String) throws(SecretReferenceError) -> String { try decode(segment) }

    private static func encode(_ name: String) -> String {
        var bytes: [UInt8] = []
        for scalar in name.unicodeScalars {
            let hidden = HiddenCharacters.mustShow(scalar)
            for byte in String(scalar).utf8 {
                if hidden || mustEncode(byte) {
                    bytes += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]]
                } else {
                    bytes.append(byte)
                }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func decode(_ segment: String) throws(SecretReferenceError) -> String {
        var bytes: [UInt8] = []
        let raw = Array(segment.utf8)
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < raw.count, let high = hexValue(raw[index + 1]), let low = hexValue(raw[index + 2]) else {
                    throw .badEscape(String(decoding: raw[index..<min(index + 3, raw.count)], as: UTF8.self))
                }
                bytes.append(high << 4 | low)
                index += 3
                continue
            }
            if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { throw .reservedCharacter(Character(Unicode.Scalar(byte))) }
            if byte <= 0x20 || byte == 0x7F { throw .unencodedSpace }
            bytes.append(byte)
            index += 1
        }
        guard let name = String(validating: bytes, as: UTF8.self) else { throw .notUTF8 }
        return name
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

/// Why text is not a valid secret reference (the command line words it).
package enum SecretReferenceError: Error, Equatable, Sendable {
    /// It does not start with `vault://`.
    case missingScheme
    /// It has this many segments, not two or three.
    case segmentCount(Int)
    /// The service segment is empty.
    case emptyService
    /// The group segment is not a valid group name.
    case invalidGroup(String)
    /// A `%` is not followed by two hex digits.
    case badEscape(String)
    /// A reserved character (`?`, `#`) is not percent-encoded.
    case reservedCharacter(Character)
    /// A space or control character is not percent-encoded.
    case unencodedSpace
    /// A percent-escape decodes to bytes that are not UTF-8.
    case notUTF8
    /// What follows `?` is not `otp`, the one query there is (`version=N` for `openbao://`).
    case unknownQuery(String)
    /// An `openbao://` reference names no field after `#`.
    case missingField
    /// An `openbao://` reference has an empty, `.` or `..` segment.
    case badPathSegment
}
