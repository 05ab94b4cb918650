import Synchronization
import VaultCrypto

/// The plaintext of the record a snapshot opened last, by its record id and sealed digest (the
/// same pair is the same sealed bytes, which the digest was checked against), held in locked
/// memory until the next record replaces it or the snapshot goes. Counts the decryptions it saved
/// and the ones it did not, for the tests that a `get` decrypts its record once.
final class LastOpenedRecord: Sendable {
    private struct Kept {
        let recordID: [UInt8]
        let digest: [UInt8]
        let plaintext: SecretBytes
    }

    private let kept = Mutex<Kept?>(nil)
    private let counts = Mutex((decrypted: 0, reused: 0))

    /// How many records were decrypted, and how many openings took the kept one instead.
    var decryptions: (decrypted: Int, reused: Int) { counts.withLock { $0 } }

    /// The kept plaintext when it is the record `recordID` sealed as `digest`.
    func plaintext(recordID: [UInt8], digest: [UInt8]) -> SecretBytes? {
        let found = kept.withLock { kept -> SecretBytes? in
            guard let kept, kept.recordID == recordID, kept.digest == digest else { return nil }
            return kept.plaintext
        }
        if found != nil { counts.withLock { $0.reused += 1 } }
        return found
    }

    /// Keeps `plaintext`, just decrypted, in place of the last.
    func keep(_ plaintext: SecretBytes, recordID: [UInt8], digest: [UInt8]) {
        counts.withLock { $0.decrypted += 1 }
        kept.withLock { $0 = Kept(recordID: recordID, digest: digest, plaintext: plaintext) }
    }
}
