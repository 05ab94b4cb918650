import VaultCrypto

/// What a `Vault`'s reads keep between them, in one value (the one thing in a `Vault` that
/// changes): the snapshot a write's first read kept, the member the identities at hand opened as,
/// what the last read learnt of this machine's device key, and whether a write holds the writer
/// lock (a read then is that write's). A reference: the reading, unlocking and writing types a
/// `Vault` hands its work to share it.
final class ReadState {
    /// The snapshot a write's first read kept, served again while the file is unchanged and the keys the same (`readSnapshot`).
    var keptRead: KeptRead?
    /// The member the identities at hand opened as, once known.
    var resolvedMember: (name: String, credential: ScopedCredential?)?
    /// Whether this vault holds the writer lock now (see `withWriterLock`).
    var holdsWriterLock = false
    /// Whether the last read used a device key that lies in a git work tree.
    var usesExposedDeviceKey = false
    /// Why the TPM did not unseal this machine's device key on the last read, if it did not:
    /// the device-bound items then answer with it, and nothing is written.
    var deviceKeyRefusal: TPMFailure?
    /// Whether the configuration's `onNotice` has heard of that key already.
    var toldOfExposedDeviceKey = false

    init() {}
}
