#if canImport(Glibc)
import Glibc
#endif
import VaultCrypto

/// A passphrase of `words` words drawn uniformly and independently from the
/// EFF large word list, joined by `separator`.
package struct PassphraseRule: Sendable {
    /// How many words.
    package let words: Int
    /// What goes between two words.
    package let separator: String

    /// A rule of `words` words (at least one) joined by `separator`.
    package init?(words: Int, separator: String) {
        guard words > 0 else { return nil }
        self.words = words
        self.separator = separator
    }

    /// A new passphrase.
    package func generate() -> SecretBytes {
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
    package var entropyBits: Double {
        Double(words) * log2(Double(EFFLargeWordList.words.count))
    }
}
