import VaultCrypto

/// A secret an item keeps beside its secret: sealed in the item's record like the secret, never
/// in a listing block, so `list` and the file show nothing of it. The raw value is its name in
/// `get --field` and in `get --json`.
public enum SealedField: String, CaseIterable, Sendable {
    /// Text kept with the secret: the further lines of a pass entry (user names, URLs, recovery
    /// codes), a Bitwarden or KeePassXC note, custom fields.
    case notes
    /// A one-time code secret (an otpauth:// URI or a Base32 seed) beside a password: `vault otp` reads it.
    case oneTimeCode = "otp"
}

/// The sealed fields of an item, by name; a field given no bytes is not kept. One stored value
/// per field, not a dictionary: bulk reads decode one of these per item.
public struct SealedFields: Sendable {
    private var notes: SecretBytes?
    private var oneTimeCode: SecretBytes?

    /// Fields with the values given (nil or empty: not set).
    public init(notes: SecretBytes? = nil, oneTimeCode: SecretBytes? = nil) {
        self[.notes] = notes
        self[.oneTimeCode] = oneTimeCode
    }

    /// The value of one field; nil when the item has none. Setting empty bytes removes the field.
    package subscript(field: SealedField) -> SecretBytes? {
        get {
            switch field {
            case .notes: notes
            case .oneTimeCode: oneTimeCode
            }
        }
        set {
            let kept = newValue.flatMap { $0.count > 0 ? $0 : nil }
            switch field {
            case .notes: notes = kept
            case .oneTimeCode: oneTimeCode = kept
            }
        }
    }

    /// The fields set, in `SealedField`'s order.
    package var present: [(field: SealedField, value: SecretBytes)] {
        SealedField.allCases.compactMap { field in self[field].map { (field, $0) } }
    }

    /// Whether no field is set.
    package var isEmpty: Bool { notes == nil && oneTimeCode == nil }

    /// The bytes of every field together.
    package var byteCount: Int { (notes?.count ?? 0) + (oneTimeCode?.count ?? 0) }
}
