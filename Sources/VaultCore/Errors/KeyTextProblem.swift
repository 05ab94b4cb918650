/// What a recipient's text is instead of an age X25519 recipient (`VaultError.invalidRecipient`).
public enum RecipientProblem: Equatable, Sendable {
    /// An ssh public key.
    case sshKey
    /// Not Bech32, or not an age recipient at all.
    case notAgeRecipient
    /// A post-quantum age recipient (`age1pq1…`).
    case postQuantum
    /// A recipient of the age plugin `name` (`age1NAME1…`).
    case plugin(name: String)
    /// An age recipient whose key is not an X25519 public key.
    case notX25519
    /// An X25519 public key of low order, to which nothing can be sealed.
    case lowOrder
}

/// What identity text holds instead of age X25519 identities (`VaultError.invalidIdentity`).
/// None repeats the text, which may be a secret.
public enum IdentityProblem: Equatable, Sendable {
    /// Only comments or blank lines.
    case noIdentity
    /// An ssh private key.
    case sshKey
    /// An age plugin identity (`AGE-PLUGIN-…`).
    case plugin
    /// A post-quantum age identity (`AGE-SECRET-KEY-PQ-…`).
    case postQuantum
    /// Not Bech32, or not an age identity at all.
    case notAgeIdentity
    /// An age identity whose key is not an X25519 private key.
    case notX25519
    /// A file of `size` bytes, too long for an identity file.
    case tooLong(size: Int)
}
