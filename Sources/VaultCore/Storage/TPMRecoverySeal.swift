import VaultCrypto

/// The device key sealed a second time by the same TPM, under the same storage primary, with no
/// PCR policy: its auth value derives from the vault's master key (and the PIN, when the PCR-bound
/// seal has one). After a change of the PCRs (a firmware or Secure Boot update) it is what lets
/// `device-key --tpm --reseal` re-seal the key after an unlock. It loads only in the TPM that
/// made it, so a copied home directory plus the passphrase still opens nothing device-bound.
/// On disk beside the sealed key (`<vault id>.recovery.tpm`, 0600): magic ‖ u8 flags (bit 0: a
/// PIN) ‖ the check (16 bytes) ‖ the TPM's blob. The check says whether a master key is the one
/// the auth value came from, so a stale seal (the master key rotated since) is known without
/// spending one of the TPM's dictionary-attack tries; it says nothing of the PIN.
struct TPMRecoverySeal: Equatable {
    static let magic = Array("VTPMRK01".utf8)
    static let checkSize = 16

    let hasPIN: Bool
    let check: [UInt8]
    let blob: [UInt8]

    /// Where the recovery seal of `vaultID`'s device key lives on this machine.
    static func path(vaultID: [UInt8], host: HostContext) -> String {
        host.deviceKeyDirectory + "/" + hex(vaultID) + ".recovery.tpm"
    }

    /// The seal's auth value: HKDF of the master key, the PIN (when there is one) in its info.
    static func authValue(masterKey: MasterKey, pin: SecretBytes?, vaultID: [UInt8]) -> SecretBytes {
        KeyRing.derive(masterKey.secret, .tpmRecoveryAuth, pin?.copyBytes() ?? [], vaultID: vaultID)
    }

    static func check(masterKey: MasterKey, vaultID: [UInt8]) -> [UInt8] {
        Array(KeyRing.derive(masterKey.secret, .tpmRecoveryCheck, [], vaultID: vaultID).copyBytes().prefix(checkSize))
    }

    /// Seals `key` with `tpm`, no PCRs, the auth value of `masterKey` and `pin`.
    static func seal(_ key: DeviceKey, masterKey: MasterKey, pin: SecretBytes?, vaultID: [UInt8], tpm: TPMAccess) throws -> TPMRecoverySeal
    {
        let blob = try tpm.sealer.seal(key.secret, pcrs: [], pin: authValue(masterKey: masterKey, pin: pin, vaultID: vaultID))
        return TPMRecoverySeal(hasPIN: pin != nil, check: check(masterKey: masterKey, vaultID: vaultID), blob: blob)
    }

    /// Whether the seal's auth value came from `masterKey`.
    func isOf(masterKey: MasterKey, vaultID: [UInt8]) -> Bool {
        TPMRecoverySeal.check(masterKey: masterKey, vaultID: vaultID) == check
    }

    /// The device key, unsealed by `sealer` with the auth value of `masterKey` and `pin` (the
    /// PCR-bound seal's, given when `hasPIN`). Throws `TPMFailure`; the caller checks `isOf(masterKey:)` first.
    func unseal(masterKey: MasterKey, pin: SecretBytes?, vaultID: [UInt8], sealer: any DeviceKeySealer) throws -> DeviceKey {
        let key = try sealer.unseal(blob, pcrs: [], pin: TPMRecoverySeal.authValue(masterKey: masterKey, pin: pin, vaultID: vaultID))
        guard key.count == DeviceKeyStore.size else { throw TPMFailure.failed(step: .unsealing, code: 0) }
        return DeviceKey(key)
    }

    func encoded() -> [UInt8] {
        TPMRecoverySeal.magic + [hasPIN ? 1 : 0] + check + blob
    }

    /// The recovery seal at `path`: a regular 0600 file of ours, never a link.
    static func read(_ path: String) throws -> TPMRecoverySeal {
        guard FileSystem.isRegularFile(path) else { throw VaultError.symbolicLink(path: path) }
        let bytes = try FileSystem.read(path, requirePrivate: true, missing: .io(path: path, operation: .open, errno: 2))
        let headerSize = magic.count + 1 + checkSize
        guard bytes.count > headerSize, bytes.count <= headerSize + SealedDeviceKey.maxBlobSize,
            Array(bytes[..<magic.count]) == magic, bytes[magic.count] <= 1
        else {
            throw VaultError.corrupted(path: path, detail: .violates(.malformedTPMRecoverySeal))
        }
        return TPMRecoverySeal(
            hasPIN: bytes[magic.count] == 1, check: Array(bytes[(magic.count + 1)..<headerSize]),
            blob: Array(bytes[headerSize...]))
    }
}
