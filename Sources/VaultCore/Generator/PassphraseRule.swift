#if canImport(Glibc)
import Glibc
#endif
import VaultCrypto

/// A passphrase of `words` words drawn uniformly and independently from the
/// EFF large word list, joined by `separator`.
public struct PassphraseRule: Sendable {
    /// How many words.
    public let words: Int
    /// What goes between two words.
    public let separator: String

    /// A rule of `words` words (at least one) joined by `separator`.
    public init?(words: Int, separator: String) {
        guard words > 0 else { return nil }
        self.words = words
        self.separator = separator
    }

    /// A new passphrase.
    public func generate() -> SecretBytes {
        let list = EFFLargeWordList.words
        var builder = SecretBytesBuilder()
        for index in 0..<words {
            if index > 0 { builder.append(separator) }
            var word = Array(list[SecureRandom.index(below: list.count)].utf8)
            word.withUnsafeBytes { builder.append($0) }
            for position in word.indices { word[position] = 0 }
        }
        return builder.finish()
    }

    /// log2 of how many passphrases the rule can give.
    public var entropyBits: Double {
        Double(words) * log2(Double(EFFLargeWordList.words.count))
    }
}
