/// A secret reference of either source: an item of this vault (`vault://`) or a field of a secret
/// in an OpenBao server (`openbao://`). `run`, `inject` and `get` take both wherever they take one.
package enum SourceReference: Hashable, Sendable, CustomStringConvertible {
    /// An item of the vault.
    case vault(SecretReference)
    /// A field of an OpenBao KV v2 secret.
    case openbao(OpenBaoReference)

    /// Whether `text` is meant as a reference of either kind, valid or not.
    package static func isReference(_ text: String) -> Bool {
        SecretReference.isReference(text) || OpenBaoReference.isReference(text)
    }

    /// Parses a reference of either kind; throws `SecretReferenceError` naming what is wrong.
    package init(parsing text: String) throws(SecretReferenceError) {
        if OpenBaoReference.isReference(text) {
            self = .openbao(try OpenBaoReference(parsing: text))
        } else {
            self = .vault(try SecretReference(parsing: text))
        }
    }

    /// The reference in its canonical spelling.
    package var description: String {
        switch self {
        case .vault(let reference): return reference.description
        case .openbao(let reference): return reference.description
        }
    }
}
