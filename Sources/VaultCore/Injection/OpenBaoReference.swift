/// A reference to one field of a KV v2 secret in an OpenBao (or HashiCorp Vault) server, written
/// where `vault://` references are: `openbao://[MOUNT/]PATH#FIELD[?version=N]`.
///
/// With two or more segments the first is the mount and the rest the path (`openbao://secret/ci/db#password`
/// reads `secret/data/ci/db`); one segment is a path in the mount `secret`, the dev server's and the
/// usual one. Names are percent-encoded as in `vault://` references (`%23` for `#`, `%20` for a space);
/// no segment may be empty, `.` or `..`. `?version=N` (from 1) reads that version instead of the latest.
package struct OpenBaoReference: Hashable, Sendable, CustomStringConvertible {
    /// The KV v2 mount.
    package var mount: String
    /// The secret's path under the mount, segments joined by "/".
    package var path: String
    /// The field of the secret's data.
    package var field: String
    /// The version to read, or nil for the latest.
    package var version: Int?

    /// What every such reference starts with.
    package static let scheme = "openbao://"
    /// The mount of a reference of one segment.
    package static let defaultMount = "secret"

    /// A reference to `field` of `path` in `mount`.
    package init(mount: String, path: String, field: String, version: Int? = nil) {
        self.mount = mount
        self.path = path
        self.field = field
        self.version = version
    }

    /// Whether `text` is meant as such a reference, valid or not: it starts with `openbao:/`.
    package static func isReference(_ text: String) -> Bool {
        text.hasPrefix("openbao:/")
    }

    /// Parses a reference; throws `SecretReferenceError` naming what is wrong.
    package init(parsing text: String) throws(SecretReferenceError) {
        guard text.hasPrefix(OpenBaoReference.scheme) else { throw .missingScheme }
        var rest = Substring(text.dropFirst(OpenBaoReference.scheme.count))
        if let questionMark = rest.firstIndex(of: "?") {
            let query = String(rest[rest.index(after: questionMark)...])
            rest = rest[..<questionMark]
            guard query.hasPrefix("version="), let number = Int(query.dropFirst("version=".count)), number >= 1,
                query.dropFirst("version=".count).allSatisfy(\.isASCII)
            else {
                if query.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) { throw .unencodedSpace }
                throw .unknownQuery(query)
            }
            version = number
        }
        guard let hash = rest.firstIndex(of: "#") else { throw .missingField }
        let fieldText = String(rest[rest.index(after: hash)...])
        guard !fieldText.isEmpty else { throw .missingField }
        field = try SecretReference.decodeSegment(fieldText)
        let segments = try rest[..<hash].split(separator: "/", omittingEmptySubsequences: false)
            .map { segment throws(SecretReferenceError) in try SecretReference.decodeSegment(String(segment)) }
        guard !segments.isEmpty, segments.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && !$0.contains("/") }) else {
            throw .badPathSegment
        }
        mount = segments.count == 1 ? OpenBaoReference.defaultMount : segments[0]
        path = segments.dropFirst(segments.count == 1 ? 0 : 1).joined(separator: "/")
    }

    /// The reference in its canonical spelling: the mount always written, reserved characters encoded.
    package var description: String {
        let names = ([mount] + path.split(separator: "/").map(String.init)).map(SecretReference.encodeSegment)
        return OpenBaoReference.scheme + names.joined(separator: "/") + "#" + SecretReference.encodeSegment(field)
            + (version.map { "?version=\($0)" } ?? "")
    }

    /// The secret this reference reads a field of: mount, path and version (one read serves every field of it).
    package var secret: SecretVersion { SecretVersion(mount: mount, path: path, version: version) }

    /// One version of one KV v2 secret.
    package struct SecretVersion: Hashable, Sendable {
        /// The KV v2 mount.
        package var mount: String
        /// The secret's path under the mount.
        package var path: String
        /// The version, or nil for the latest.
        package var version: Int?
    }
}
