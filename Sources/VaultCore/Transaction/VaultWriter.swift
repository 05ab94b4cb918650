import FoundationEssentials
import VaultCrypto

#if canImport(Glibc)
import Glibc
#endif

/// The one writer: the writer lock, a fresh read, the change, one atomic write, then the counters.
/// What a `Vault` writes with, given the parts of it a write needs.
struct VaultWriter {
    /// How the write reads the file first (and the vault's location, host, configuration and reads).
    let reader: SnapshotReader
    /// The scoped credential of the keys at hand, if any (`Vault.scopedCredential`): what a refusal to write names.
    let scopedCredential: () -> ScopedCredential?

    var location: VaultLocation { reader.location }
    var host: HostContext { reader.host }
    var configuration: VaultConfiguration { reader.configuration }
    var reads: ReadState { reader.reads }

    /// Runs `body` holding the writer lock on the vault's directory; a call
    /// made while this vault already holds it runs `body` at once (a second
    /// flock from this process would wait for itself).
    func withWriterLock<R>(_ body: () throws -> R) throws -> R {
        if reads.holdsWriterLock { return try body() }
        let lock = try LockFile(path: try VaultWriter.writerLockPath(of: location, host: host))
        reads.holdsWriterLock = true
        defer {
            reads.holdsWriterLock = false
            withExtendedLifetime(lock) {}
        }
        FileSystem.removeAbandonedTemporaries(of: location.path, directory: location.directory)
        let vaultID =
            reader.keptVaultID
            ?? VaultFile.peekVaultID(FileSystem.readPrefix(location.path, count: VaultFile.magic.count + 2 + VaultFile.idSize))
        if !vaultID.isEmpty {
            // Device grants are rewritten under this lock by writes (a read's refresh of missing ones is best effort).
            FileSystem.removeAbandonedTemporaries(of: DeviceGrants.path(vaultID: vaultID, host: host), directory: host.deviceKeyDirectory)
            FileSystem.removeAbandonedTemporaries(
                of: DeviceKeyStore.pendingPath(vaultID: vaultID, host: host), directory: host.deviceKeyDirectory)
            // A device key a failed re-key could not settle (only re-keys make one, under this lock).
            if FileSystem.isRegularFile(DeviceKeyStore.pendingPath(vaultID: vaultID, host: host)), let bytes = try? reader.readFile() {
                DeviceKeyStore.settlePending(vaultID: vaultID, host: host) { Snapshot.isDeviceKey($0, of: bytes) }
            }
        }
        if FileSystem.exists(location.legacyLockPath) { FileSystem.remove(location.legacyLockPath) }
        return try body()
    }

    /// The lock file of the vault's directory: in this user's runtime directory
    /// (private, so another user cannot hold it and stall writers), named by the
    /// directory's device and inode (so every path to it finds one lock), and
    /// never in the directory itself (which may be a git work tree).
    static func writerLockPath(of location: VaultLocation, host: HostContext) throws -> String {
        var info = stat()
        guard stat(location.directory, &info) == 0 else {
            throw VaultError.io(path: location.directory, operation: .stat, errno: errno)
        }
        return try host.preparedRuntimeDirectory() + "/writer-\(info.st_dev)-\(info.st_ino).lock"
    }

    /// Runs `body` under the writer lock on a fresh read of the file, then writes the result atomically.
    /// A v1 file is converted to v2 first (keeping `<vault>.v1.bak`), except in a git work tree, where
    /// teammates may still run a v1 build: there only `vault upgrade` converts, and the change is refused.
    func transaction<R>(_ body: (inout WorkingCopy) throws -> R) throws -> R {
        guard try location.exists else { throw VaultError.noSuchVault(path: location.path) }
        if let operation = GitWorkTree.unfinishedOperation(location.directory) {
            throw VaultError.unfinishedGitOperation(path: location.path, operation)
        }
        return try withWriterLock {
            try reader.withKeys {
                var vault = WorkingCopy(try reader.readSnapshot(writing: true))
                vault.pending.trashPurgeBefore = trashPurgeBefore
                let epochOnDisk = vault.file.keyEpoch
                // A credential whose write keys do not hold here (granted before a conversion) is read-only in fact.
                guard vault.isWritable else {
                    guard let credential = scopedCredential() else { throw VaultError.locked(nil) }
                    if let name = credential.memberName { throw VaultError.readOnlyMember(name) }
                    throw credential.canWrite ? VaultError.credentialPredatesConversion : VaultError.readOnlyCredential
                }
                let converted = try convertIfAllowed(&vault, explicitly: false)
                let keysBefore = vault.grantedKeys
                let trustKeyBefore = vault.file.trustPublicKey
                let result: R
                let resealed: Int?
                do {
                    resealed = try exposedDeviceKeyMove.moveOff(&vault)
                    result = try body(&vault)
                    try commit(&vault, replacingEpoch: epochOnDisk)
                } catch {
                    converted?.discardBackup()
                    throw error
                }
                if let converted { configuration.onNotice?(.converted(backup: converted.backup)) }
                if vault.file.trustPublicKey != trustKeyBefore {
                    configuration.onNotice?(.trustFingerprintChanged(vault.file.trustPublicKey.fingerprint))
                }
                if let resealed { try exposedDeviceKeyMove.finish(resealed: resealed, vaultID: vault.file.vaultID) }
                // Changing items changes no grant: the cache and device grants are rewritten only when keys or groups changed.
                MachineGrants.refresh(from: vault, onlyIfMissing: vault.grantedKeys == keysBefore, host: host)
                return result
            }
        }
    }

    /// What a write is: a change of the vault, or a merge of two versions of it.
    enum Write {
        /// Checked by `checkBeforeChanging` first; its counters recorded as seen once it is in place.
        case change
        /// Records nothing: a merge's file may be git's temporary copy, or be put back when git's
        /// merge is aborted; the next read of the final file records it. Not checked by
        /// `checkBeforeChanging`, whose refusal a merge is the way out of.
        case merge
    }

    /// Writes `vault` atomically, then (a change) records its counters as seen, only now that it is
    /// renamed into place and synced.
    ///
    /// A change that raises the key epoch (rekey, revoke, member removal, a rotating passwd) must be
    /// remembered, or a copy from before it opens here again: it records the new epoch durably
    /// before the rename (a state directory that cannot be written fails the write and leaves the
    /// old file), and fails if it cannot complete that record once the file is in place.
    func commit(_ vault: inout WorkingCopy, as write: Write = .change, replacingEpoch replaced: UInt64? = nil) throws {
        if write == .change { try reader.checkBeforeChanging() }
        let raises = write == .change && vault.keys.mayWriteHeader && replaced.map { vault.file.keyEpoch > $0 } == true
        // Encoding raises the write generation: the counters recorded are those of the file written.
        let pieces = try vault.encodePieces()
        let file = vault.file, groups = vault.groupsVerifiedByWriteKey
        try FileSystem.writeAtomically(pieces, to: location.path, directory: location.directory) {
            guard raises, let replaced else { return }
            try SeenCounters.record(vaultID: file.vaultID, host: host) { seen in
                seen.raised(to: file, groups: groups, replacing: replaced) ?? seen
            }
        }
        guard write == .change else { return }
        // The owner's roster as written here: what a conversion of a v2 copy is compared with.
        if vault.keys.isOwners, file.hasTeamLog, !file.members.isEmpty, let members = try? vault.members() {
            try? WrittenRoster.record(members, vaultID: file.vaultID, host: host)
        }
        // This file is remembered as the copy of its vault written last here.
        let here = FileSystem.realPath(location.path)
        var before: String?
        if raises {
            try SeenCounters.record(vaultID: file.vaultID, host: host) { seen in
                before = seen.writtenCopy
                var next = seen.merging(file, groups: groups)
                next.writtenCopy = here ?? next.writtenCopy
                return next
            }
        } else {
            before = reader.rememberCounters(of: vault, writtenCopy: here)
        }
        if let here, let before { tellOfForkedCopy(written: here, before: before, vaultID: file.vaultID) }
    }

    /// When the copy written last here was another file (a `cp` of this one: the same vault id at
    /// another path, still there), says so once: that copy now reads as older than what this
    /// machine has seen (`VaultNotice.forkedCopy`).
    private func tellOfForkedCopy(written here: String, before other: String, vaultID: [UInt8]) {
        guard other != here, FileSystem.isRegularFile(other),
            VaultFile.peekVaultID(FileSystem.readPrefix(other, count: VaultFile.magic.count + 2 + VaultFile.idSize)) == vaultID
        else { return }
        configuration.onNotice?(.forkedCopy(written: location.path, other: other))
    }

    /// Converts a v1 working copy to v2 in memory. Outside a git work tree it first keeps the file as
    /// `<vault>.v1.bak` (0600; one already there is kept); in one, git's history keeps the v1 file,
    /// and outside `vault upgrade` (`explicitly`) the change is refused instead, since teammates may
    /// still run a v1 build. Nil when the file was v2 already.
    func convertIfAllowed(_ vault: inout WorkingCopy, explicitly: Bool) throws -> Conversion? {
        if vault.file.version == 2, vault.keys.isOwners {
            if let members = try vault.convertToTeamLog() {
                try configuration.review(
                    .conversion(of: members, unvouched: WrittenRoster.unvouched(members, vaultID: vault.file.vaultID, host: host)))
            }
            return nil
        }
        guard vault.file.version == 1 else { return nil }
        let inGitWorkTree = GitWorkTree.contains(location.directory)
        if !explicitly, inGitWorkTree {
            throw VaultError.upgradeNeeded(path: location.path, byOwner: !vault.keys.isOwners, inGitWorkTree: true)
        }
        try vault.convertToCurrentVersion()
        guard !inGitWorkTree else { return Conversion(backup: nil, madeBackup: false) }
        let backup = location.path + ".v1.bak"
        if FileSystem.exists(backup) { return Conversion(backup: backup, madeBackup: false) }
        try FileSystem.createExclusive(try reader.readFile().allBytes, at: backup)
        return Conversion(backup: backup, madeBackup: true)
    }

    /// A v1 file converted in memory: where the v1 file is kept (nil in a git work tree, whose
    /// history keeps it), and whether that backup was made now (and so goes if the change fails).
    struct Conversion {
        let backup: String?
        let madeBackup: Bool

        /// After the change failed: the vault is still the v1 file, so a backup made for it goes.
        func discardBackup() {
            if madeBackup, let backup { FileSystem.remove(backup) }
        }
    }

    /// Moving off a device key that lies in a git work tree, in the same write as the change.
    var exposedDeviceKeyMove: ExposedDeviceKeyMove {
        ExposedDeviceKeyMove(location: location, host: host, configuration: configuration, reads: reads)
    }

    /// Milliseconds since 1970 before which the next write purges a trashed item: `trashDays` before now.
    var trashPurgeBefore: UInt64 {
        let now = host.now().timeIntervalSince1970 * 1000
        return UInt64(max(0, now - Double(configuration.trashDays) * 86_400_000))
    }
}
