import Foundation
import VaultCrypto

/// A rough estimate of how hard a new passphrase is to guess, in bits: each
/// character counts log2 of the size of the character classes the passphrase
/// uses (lowercase 26, uppercase 26, digits 10, anything else 33), and a run
/// of one repeated character counts once. It knows no dictionary, so it
/// overrates words; it is there to catch `a` and `hunter2`, never to refuse.
struct PassphraseStrength {
    /// Below this estimate vault warns (and asks on a terminal); docs/CLI.md says the same number.
    static let floorBits = 50

    let bits: Int

    init(_ passphrase: SecretBytes) {
        bits = passphrase.withUnsafeBytes { PassphraseStrength.estimate(Array($0)) }
    }

    var isWeak: Bool { bits < PassphraseStrength.floorBits }

    private static func estimate(_ bytes: [UInt8]) -> Int {
        var pool = 0
        if bytes.contains(where: { (0x61...0x7A).contains($0) }) { pool += 26 }
        if bytes.contains(where: { (0x41...0x5A).contains($0) }) { pool += 26 }
        if bytes.contains(where: { (0x30...0x39).contains($0) }) { pool += 10 }
        if bytes.contains(where: { !(0x61...0x7A).contains($0) && !(0x41...0x5A).contains($0) && !(0x30...0x39).contains($0) }) {
            pool += 33
        }
        guard pool > 0 else { return 0 }
        let counted = zip(bytes, [nil] + bytes.map(Optional.some)).filter { $0.0 != $0.1 }.count
        return Int(Double(counted) * log2(Double(pool)))
    }
}
