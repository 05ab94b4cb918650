import VaultCore
import VaultCrypto

/// The nested JSON that kubectl, cargo and Terraform hand a helper, read into a `JSONTree`
/// whose strings stay in wiped buffers (a cargo login or a Terraform store carries a token).
enum HelperJSON {
    /// Parses `input` as one JSON value; `source` names it in the error ("KUBERNETES_EXEC_INFO").
    ///
    /// - Throws: `UsageError` naming the fault and its byte offset, never a value.
    static func parse(_ input: SecretBytes, source: String, hint: String) throws -> JSONTree {
        do {
            return try JSONTree.parse(input, origin: .named(source))
        } catch let problem as ImportProblem {
            guard case .malformedJSON(let fault, let offset) = problem.reason else { throw problem }
            throw UsageError(
                "\(source) is not valid JSON: \(ImportWords.words(fault))\(offset.map { " at byte \($0)" } ?? "")",
                hint: hint)
        }
    }

    /// The text of the string member `key` of `object`; nil when it is absent, null or empty.
    ///
    /// - Throws: `UsageError` when it is there but not UTF-8 text, or holds a line break or NUL byte.
    static func text(_ object: JSONTree, _ key: String, in source: String, hint: String) throws -> String? {
        guard let member = object[key] else { return nil }
        switch member {
        case .null:
            return nil
        case .string(let value):
            guard value.count > 0 else { return nil }
            guard let text = member.text, !text.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\0" }) else {
                throw UsageError("\(key) in \(source) is not one line of UTF-8 text", hint: hint)
            }
            return text
        default:
            throw UsageError("\(key) in \(source) is not a string", hint: hint)
        }
    }

    /// `"key":` followed by `bytes` as a JSON string, in a wiped buffer: a member of a reply that holds a secret.
    ///
    /// - Throws: `UsageError` when the bytes are not UTF-8 text.
    static func secretMember(_ key: String, _ bytes: SecretBytes) throws -> SecretBytes {
        let literal = try bytes.withUnsafeBytes { try FlatJSON.stringLiteral($0, field: key) }
        return SecretBytes(Array((ItemOutput.jsonString(key) + ":").utf8)).appending(literal)
    }

    /// `parts` joined into one wiped buffer, with `separator` between them.
    static func joined(_ parts: [SecretBytes], separator: String = ",") -> SecretBytes {
        var result = SecretBytes(count: 0)
        for (index, part) in parts.enumerated() {
            if index > 0 { result = result.appending(SecretBytes(Array(separator.utf8))) }
            result = result.appending(part)
        }
        return result
    }

    /// Plain (non-secret) text as a wiped buffer, to join with secret parts.
    static func plain(_ text: String) -> SecretBytes { SecretBytes(Array(text.utf8)) }
}
