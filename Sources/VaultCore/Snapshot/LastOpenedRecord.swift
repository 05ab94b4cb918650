import Synchronization
import VaultCrypto

/// The plaintext of the record a snapshot opened last, by its record id and sealed digest (the
/// same pair is the same sealed bytes, which the digest was checked against), held in locked
/// memory until the next record replaces it or the snapshot (and the working copies made from it,
/// which share it) goes. Counts the records decrypted,
/// for the test that a `get` decrypts its record once.
final class LastOpenedRecord: Sendable {
    private struct Kept {
        let recordID: Bytes16
        let digest: (Bytes16, Bytes16)
        let plaintext: SecretBytes
    }

    private let kept = Mutex<Kept?>(nil)
    private let decrypted = Mutex(0)

    /// How many records were decrypted (each kept in turn).
    var decryptions: Int { decrypted.withLock { $0 } }

    /// The kept plaintext when it is the record `recordID` sealed as `digest`.
    func plaintext(recordID: Bytes16, digest: (Bytes16, Bytes16)) -> SecretBytes? {
        kept.withLock { kept -> SecretBytes? in
            guard let kept, kept.recordID == recordID, kept.digest == digest else { return nil }
            return kept.plaintext
        }
    }

    /// Keeps `plaintext`, just decrypted, in place of the last.
    func keep(_ plaintext: SecretBytes, recordID: Bytes16, digest: (Bytes16, Bytes16)) {
        decrypted.withLock { $0 += 1 }
        kept.withLock { $0 = Kept(recordID: recordID, digest: digest, plaintext: plaintext) }
    }
}
