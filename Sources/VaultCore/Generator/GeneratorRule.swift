import VaultCrypto

/// What `--generate` draws: random characters or a passphrase of words.
package enum GeneratorRule: Sendable {
    /// Random characters.
    case characters(PasswordRule)
    /// A passphrase of words.
    case words(PassphraseRule)

    /// A new secret that meets the rule.
    package func generate() -> SecretBytes {
        switch self {
        case .characters(let rule): rule.generate()
        case .words(let rule): rule.generate()
        }
    }

    /// log2 of how many secrets the rule can give, each equally likely.
    package var entropyBits: Double {
        switch self {
        case .characters(let rule): rule.entropyBits
        case .words(let rule): rule.entropyBits
        }
    }
}
