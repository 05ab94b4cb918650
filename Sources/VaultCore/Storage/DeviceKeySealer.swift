import VaultCrypto

/// Seals and unseals this machine's device keys with its TPM 2.0. VaultTPM implements it
/// with tpm2-tss; tests of VaultCore may give their own.
package protocol DeviceKeySealer: Sendable {
    /// Seals `key` so that only this TPM opens it, and only while the PCRs `pcrs` (sha256 bank)
    /// hold their values now and, with a `pin`, with that PIN. Returns the blob to keep.
    /// Throws `TPMFailure`.
    func seal(_ key: SecretBytes, pcrs: [UInt8], pin: SecretBytes?) throws -> [UInt8]
    /// Opens a blob `seal` made with the same `pcrs`, with `pin` when it was sealed with one.
    /// Throws `TPMFailure`.
    func unseal(_ blob: [UInt8], pcrs: [UInt8], pin: SecretBytes?) throws -> SecretBytes
}

/// This machine's TPM as vault uses it (`HostContext.tpm`).
package struct TPMAccess: Sendable {
    /// What seals and unseals.
    package var sealer: any DeviceKeySealer
    /// The PCRs a new seal binds to (sha256 bank).
    package var pcrs: [UInt8]
    /// Asks for the PIN of a device key sealed with one; nil when there is no way to ask.
    package var askPIN: (@Sendable () throws -> SecretBytes)?

    /// The TPM reached through `sealer`, new seals bound to `pcrs`, a sealed key's PIN asked by `askPIN`.
    package init(sealer: any DeviceKeySealer, pcrs: [UInt8], askPIN: (@Sendable () throws -> SecretBytes)?) {
        self.sealer = sealer
        self.pcrs = pcrs
        self.askPIN = askPIN
    }
}

/// Why the TPM did not seal or unseal a device key. Facts only: the command line words them.
public enum TPMFailure: Error, Equatable, Sendable {
    /// tpm2-tss could not be loaded (dlopen's words).
    case libraryMissing(reason: String)
    /// The kernel's TPM device exists, but this user may not open it (membership of the `tss` group).
    case deviceNotOpenable(path: String)
    /// The TPM of this TCTI string did not answer (the TSS2 return code).
    case unreachable(tcti: String, code: UInt32)
    /// The device key is sealed, but no TPM is configured or found on this machine.
    case noTPM
    /// The seal's PCRs hold other values now: this machine's boot state changed.
    case stateChanged(pcrs: [UInt8])
    /// The sealed key was made by another TPM (a copied home directory or backup), or this TPM was cleared.
    case anotherTPM
    /// This TPM opens the seal, but the key in it is not the vault's device key: another vault's
    /// seal put in its place, or this vault's from before a re-key (a restored backup).
    case notThisVaultsSeal
    /// The PIN was wrong; the TPM counts it against its dictionary-attack lockout.
    case wrongPIN
    /// The TPM's dictionary-attack lockout is on: it refuses every PIN until it recovers.
    case lockout
    /// The seal needs a PIN, and there is no way to ask for one.
    case pinNeeded
    /// Any other TPM error: the step that failed and its TSS2 return code.
    case failed(step: TPMStep, code: UInt32)
}

/// The step of a seal or unseal that failed (`TPMFailure.failed`).
public enum TPMStep: Equatable, Sendable {
    /// The steps of a seal or unseal, in order.
    case checkingInput, creatingPrimaryKey, policySession, creatingSealedObject, loadingSealedObject, unsealing, readingSealedBlob
    /// A step this build does not know by name.
    case unknown
}
