#if canImport(Glibc)
import Glibc
#endif
import VaultCrypto

/// How a random password is drawn: `length` characters, each uniform over
/// `alphabet`, and, when classes are required, redrawn whole until every
/// required class appears, so each password that meets the rule is equally
/// likely.
package struct PasswordRule: Sendable {
    /// How many characters.
    package let length: Int
    /// The characters to draw from, each once, at most 256 (printable ASCII).
    package let alphabet: [UInt8]
    /// Classes that must each appear at least once.
    package let required: [CharacterClass]

    /// A rule; nil when it cannot be met: an empty alphabet, a required class
    /// with no character in the alphabet, or fewer characters than required classes.
    package init?(length: Int, alphabet: [UInt8], required: [CharacterClass] = []) {
        let alphabet = Array(Set(alphabet)).sorted()
        guard length > 0, !alphabet.isEmpty, alphabet.count <= 256, length >= required.count,
            required.allSatisfy({ required in alphabet.contains(where: required.contains) })
        else { return nil }
        self.length = length
        self.alphabet = alphabet
        self.required = required
    }

    /// A new password that meets the rule.
    package func generate() -> SecretBytes {
        while true {
            let candidate = RandomSecret.generate(length: length, alphabet: alphabet)
            let meetsRule = candidate.withUnsafeBytes { bytes in
                required.allSatisfy { required in bytes.contains(where: required.contains) }
            }
            if meetsRule { return candidate }
        }
    }

    /// log2 of how many passwords meet the rule: every string of `length`
    /// characters over the alphabet, less those missing a required class
    /// (counted by inclusion and exclusion over the required classes).
    package var entropyBits: Double {
        let size = Double(alphabet.count)
        var fraction = 0.0
        for subset in 0..<(1 << required.count) {
            let left = required.indices.filter { subset & (1 << $0) != 0 }.map { required[$0] }
            let remaining = alphabet.filter { byte in !left.contains { $0.contains(byte) } }.count
            let sign = left.count % 2 == 0 ? 1.0 : -1.0
            fraction += sign * pow(Double(remaining) / size, Double(length))
        }
        return Double(length) * log2(size) + log2(fraction)
    }
}
