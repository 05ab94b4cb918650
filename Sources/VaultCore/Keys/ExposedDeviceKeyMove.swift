import VaultCrypto

/// Something vault did, or found, on its own during an operation that the
/// user should know about; the command line prints it.
public enum VaultNotice: Equatable, Sendable {
    /// A device key that an earlier version kept beside the vault lies in a
    /// git work tree: it is public. It is used for reading until the owner's
    /// next change (with the master key) moves the vault off it.
    case deviceKeyExposed(path: String)
    /// A re-key (a full member removed, `rekey`) with a live session at hand: the new master key is
    /// sealed under the passphrase or key file, which a session does not hold, so it is asked for.
    case rekeyAsksForTheSecret
    /// The vault moved off such a key: a new device key in the XDG data
    /// directory, the `always` class keys replaced, and `resealed` items (the
    /// device-bound ones and those of the `always` classes) sealed again.
    /// `removed`: whether the old key file was removed (it is kept when other
    /// vaults in its directory may still use it).
    case deviceKeyReplaced(oldPath: String, removed: Bool, resealed: Int)
    /// A v1 vault file was converted to format v2 on a write; the v1 file is kept at `backup`
    /// (nil in a git work tree, whose history keeps it).
    case converted(backup: String?)
    /// A write gave the vault a new signing key (a re-key, a full member removed, a conversion):
    /// its new trust fingerprint, to pin again wherever the old one was pinned.
    case trustFingerprintChanged(String)
    /// A file whose key epoch is lower than this machine had seen or was told to expect
    /// (`expected`) was accepted (`--accept-rollback`) and recorded as seen.
    case rollbackAccepted(epoch: UInt64, expected: UInt64)
    /// The file is behind what this machine has seen (a write or group generation `found` below
    /// `seen`): a checkout that is behind, or a rolled-back copy. Reads go on; writes are refused.
    case behindSeen(found: UInt64, seen: UInt64)
    /// The file is at the counters this machine has seen, with another write id (`found`, the one
    /// seen `seen`): a sibling, another clone's write from the same base. Reads go on; writes are refused.
    case siblingOfSeen(found: WriteID, seen: WriteID)
    /// The item read is in conflict since a merge: what was read is one side's version.
    case itemInConflict(ItemKey)
    /// A write to `written`, a copy of the vault at `other` (the same vault id, copied as a file):
    /// `other` now reads as older than what this machine has seen, and its writes are refused.
    case forkedCopy(written: String, other: String)
}

/// Moving a vault off a device key an earlier version left beside it in a git work tree, in the
/// same write as a change of the owner's (`VaultWriter.transaction`).
struct ExposedDeviceKeyMove {
    let location: VaultLocation
    let host: HostContext
    let configuration: VaultConfiguration
    /// What the reads learnt of the device key (`ReadState.usesExposedDeviceKey`).
    let reads: ReadState

    /// When the working copy was read with a device key from a git work tree and
    /// holds the master key, moves it onto a new device key (written as
    /// pending; see `finish`) in the same write as
    /// the change. Returns how many items were re-sealed, or nil when nothing moved.
    func moveOff(_ vault: inout WorkingCopy) throws -> Int? {
        guard reads.usesExposedDeviceKey, vault.keys.isOwners else { return nil }
        let newKey = try DeviceKeyStore.createPending(vaultID: vault.file.vaultID, host: host)
        return try vault.rebind(toDeviceKey: newKey)
    }

    /// After the vault write: the pending key becomes this machine's device
    /// key (a crash before this is resumed on the next read), the old key file
    /// is unlinked (never followed, never wiped in place: it is public, and a
    /// link there must not make vault touch its target) unless other vaults
    /// share its directory, and the user is told to commit its removal.
    func finish(resealed: Int, vaultID: [UInt8]) throws {
        try DeviceKeyStore.publish(vaultID: vaultID, host: host)
        reads.usesExposedDeviceKey = false
        let oldPath = location.legacyDeviceKeyPath
        let vaultName = String(location.path.split(separator: "/").last ?? "")
        let sharesDirectory = FileSystem.list(location.directory).contains { $0.hasSuffix(".vault") && $0 != vaultName }
        if !sharesDirectory { FileSystem.remove(oldPath) }
        configuration.onNotice?(.deviceKeyReplaced(oldPath: oldPath, removed: !sharesDirectory, resealed: resealed))
    }
}
