#if canImport(Glibc)
import Glibc
#endif

/// What `verify` found.
public struct VerifyReport: Sendable {
    /// A file holding secrets that group or others may read or write (or a
    /// directory they may write to), and its mode.
    package var exposedFiles: [(path: String, mode: UInt32)]
    /// Whether the records were checked: not while the vault file itself is exposed (vault refuses to read it).
    package var checkedRecords: Bool
    /// Why the vault file as a whole cannot be trusted (header, index), if so.
    package var damage: Damage?
    /// How many records the vault file holds.
    package var itemCount: Int
    /// Records that opened and decoded.
    package var opened: Int
    /// Records the keys at hand do not open (locked, or bound to another device).
    package var unopened: Int
    /// Records that failed to open with the right keys: damaged or tampered with.
    package var damagedRecords: Int
    /// Listing blocks (what `list` reads) that failed to open with the right keys, or list other items than their group and class hold.
    package var damagedListings: Int = 0
    /// The file's format version (1 or 2), once parsed.
    public var formatVersion: Int = 0
    /// Its key epoch (0 in format v1): raised by every rekey, revoke and group deletion.
    public var keyEpoch: UInt64 = 0
    /// Its write generation (0 in format v1): raised by every change the owner writes.
    public var writeGeneration: UInt64 = 0
    /// Groups whose index fails its MAC, by name.
    public var damagedGroups: [String] = []
    /// Groups whose read MAC fails, though their index MAC holds (readers without the write key
    /// refuse them; the next change by a writer makes the read MAC again), by name.
    package var groupsFailingTheirReadMAC: [String] = []
    /// Items whose record opens but a version nested in it does not (a revision, a conflict
    /// version, a sealed field), by name; and trashed records that do not open whole.
    package var damagedVersions: [ItemKey] = []
    /// Conflict versions sealed under a group or class the keys at hand do not open.
    package var unopenedVersions: Int = 0
    /// Why the member roster (what `vault member list` reads) does not open whole, if so; checked
    /// only with keys that open it (the owner's or a full member's), as `member list` needs.
    package var damagedRoster: Damage?

    /// Whether anything was found damaged: the file as a whole, a group, the roster, or any record.
    public var isDamaged: Bool {
        damage != nil || damagedRecords > 0 || damagedListings > 0 || !damagedGroups.isEmpty || !groupsFailingTheirReadMAC.isEmpty
            || damagedRoster != nil || !damagedVersions.isEmpty
    }
}

/// What `upgrade` did.
public struct UpgradeOutcome: Sendable, Equatable {
    /// The format version the file had.
    package var fromVersion: Int
    /// Where the v1 file was kept, when it was converted.
    package var backup: String?
    /// The format version the file has now: the one every write produces.
    package var toVersion: Int { Int(VaultFile.version) }
}

/// What `reset` removed.
package struct ResetOutcome: Sendable {
    /// The files and directories removed.
    package var removedPaths: [String]
    /// How many unlock sessions ended.
    package var sessionsEnded: Int
}

/// Checking, converting, quarantining and removing the vault (`verify`, `upgrade`, `verify
/// --quarantine`, `reset`), with what the vault reads and writes with. The façade checks the keys'
/// authority first.
struct Maintenance {
    let writer: VaultWriter

    private var reader: SnapshotReader { writer.reader }
    private var location: VaultLocation { writer.location }
    private var host: HostContext { writer.host }
    private var configuration: VaultConfiguration { writer.configuration }
    private func readFile() throws -> FileBytes { try reader.readFile() }

    /// Checks the vault without changing it: the permissions of its files, its
    /// format, the member roster and every record the keys at hand open.
    func verify() throws -> VerifyReport {
        var report = VerifyReport(
            exposedFiles: [], checkedRecords: true, damage: nil, itemCount: 0, opened: 0, unopened: 0, damagedRecords: 0)
        if let mode = FileSystem.mode(location.directory), mode & 0o022 != 0, mode & UInt32(S_ISVTX) == 0 {
            report.exposedFiles.append((location.directory, mode))
        }
        if let mode = FileSystem.mode(location.path), mode & 0o022 != 0 { report.exposedFiles.append((location.path, mode)) }
        guard try location.exists else { throw VaultError.noSuchVault(path: location.path) }
        let vaultID = VaultFile.peekVaultID(try readFile())
        let deviceKeyPath = DeviceKeyStore.path(vaultID: vaultID, host: host)
        if let mode = FileSystem.mode(deviceKeyPath), mode & 0o077 != 0 { report.exposedFiles.append((deviceKeyPath, mode)) }
        do {
            let vault = try reader.withKeys { try reader.readSnapshot() }
            let problems = try vault.problemsBeyondOpening()
            if problems.repeatedItemIDs { throw VaultError.corrupted(path: location.path, detail: .violates(.repeatedItemID)) }
            if vault.file.version >= 2, !vault.headerIsSigned(byFingerprint: vault.file.trustPublicKey.fingerprint) {
                throw VaultError.corrupted(path: location.path, detail: .violates(.signaturesUnchecked))
            }
            report.itemCount = vault.file.index.count
            report.formatVersion = Int(vault.file.version)
            report.keyEpoch = vault.file.keyEpoch
            report.writeGeneration = vault.file.writeGeneration
            report.damagedGroups = vault.damagedGroups.map(\.group.name)
            report.groupsFailingTheirReadMAC = problems.readMACFailures.map(\.name)
            if vault.keys.isFull {
                do {
                    _ = try vault.readMembers()
                } catch VaultError.snapshot(.corrupted(_, let detail)) {
                    report.damagedRoster = detail
                }
            }
            for position in vault.file.index.indices {
                configuration.progress?(position + 1, vault.file.index.count)
                do {
                    let item = try vault.openRecord(at: position)
                    report.opened += 1
                    // Every version nested in it: its revisions, conflict versions (those sealed under
                    // another group's keys where these keys hold them) and sealed fields.
                    do {
                        let whole = try vault.openWholeRecord(at: position)
                        report.unopenedVersions += whole.conflicts.filter(\.otherIsSealedElsewhere).count
                    } catch VaultError.snapshot(.corrupted) {
                        report.damagedVersions.append(item.attributes.key)
                    }
                } catch VaultError.unlock(.locked), VaultError.keys(.boundToAnotherDevice) {
                    report.unopened += 1
                } catch VaultError.snapshot(.damagedGroup) {
                    report.damagedRecords += 1
                } catch VaultError.snapshot(.corrupted) {
                    report.damagedRecords += 1
                }
            }
            // Each listing block the keys at hand open must open whole and list what its pair holds.
            let listedPairs = vault.file.listings.filter {
                ![Tombstone.blockClassID, TrashEntry.blockClassID, GrantRecord.blockClassID].contains($0.classID)
            }
            .map { ListingPair(groupID: $0.groupID, classID: $0.classID) }
            for pair in Set(listedPairs) where vault.damagedGroups.allSatisfy({ $0.groupID != pair.groupID }) {
                do {
                    guard var listed = try vault.listedItems(of: pair) else { continue }
                    let held = vault.file.index.filter { $0.groupID == pair.groupID && $0.classID == pair.classID }.map(\.itemID)
                    // Each held item must be listed and decode, and nothing else be listed.
                    let listsWhatIsHeld = try held.allSatisfy { try listed.take($0) != nil } && listed.areAllTaken
                    if !listsWhatIsHeld { report.damagedListings += 1 }
                } catch VaultError.snapshot(.corrupted) {
                    report.damagedListings += 1
                } catch VaultError.unlock(.locked), VaultError.keys(.boundToAnotherDevice) {
                }
            }
            // Each tombstone block the keys at hand open must open whole (a merge reads them), and name
            // no item the index holds in another group.
            let heldIn = Dictionary(vault.file.index.map { ($0.itemID, $0.groupID) }, uniquingKeysWith: { first, _ in first })
            for block in vault.file.listings where block.classID == Tombstone.blockClassID && vault.keys.groups[block.groupID] != nil {
                do {
                    let tombstones = try vault.tombstones(of: block.groupID)
                    if tombstones.contains(where: { heldIn[$0.itemID].map { $0 != block.groupID } ?? false }) {
                        report.damagedListings += 1
                    }
                } catch VaultError.snapshot(.corrupted) {
                    report.damagedListings += 1
                }
            }
            // Each grant ledger block the group key opens must open whole.
            for block in vault.file.listings
            where block.classID == GrantRecord.blockClassID && vault.keys.groups[block.groupID]?.groupKey != nil {
                if (try? vault.grantLedger(of: block.groupID)) == nil { report.damagedListings += 1 }
            }
            // Each trash block the keys at hand open must open whole, and each record in it that they open.
            for block in vault.file.listings where block.classID == TrashEntry.blockClassID && vault.keys.groups[block.groupID] != nil {
                do {
                    for entry in try vault.trash(of: block.groupID) {
                        do {
                            _ = try vault.openTrashed(entry, of: block.groupID)
                        } catch VaultError.unlock(.locked), VaultError.keys(.boundToAnotherDevice) {
                        } catch VaultError.snapshot(.corrupted) {
                            report.damagedListings += 1
                        }
                    }
                } catch VaultError.snapshot(.corrupted) {
                    report.damagedListings += 1
                }
            }
        } catch VaultError.snapshot(.corrupted(_, let detail)) {
            report.damage = detail
        } catch VaultError.storage(.insecurePermissions), VaultError.storage(.writableByOthers) {
            report.checkedRecords = false
        }
        return report
    }

    /// Converts a v1 vault file to format v2 (keeping the v1 file as `<vault>.v1.bak`); in a
    /// git work tree too, where a plain write refuses to. Needs the owner's keys. A v2 file is left as it is.
    func upgrade() throws -> UpgradeOutcome {
        try writer.withWriterLock {
            try reader.withKeys {
                var vault = WorkingCopy(try reader.readSnapshot(writing: true))
                let from = Int(vault.file.version)
                guard vault.file.version < VaultFile.version else { return UpgradeOutcome(fromVersion: from, backup: nil) }
                guard vault.keys.isOwners else { throw VaultError.locked(nil) }
                let conversion = try writer.convertIfAllowed(&vault, explicitly: true)
                do {
                    try writer.commit(&vault)
                } catch {
                    conversion?.discardBackup()
                    throw error
                }
                MachineGrants.refresh(from: vault, onlyIfMissing: false, host: host)
                return UpgradeOutcome(fromVersion: from, backup: conversion?.backup)
            }
        }
    }

    /// Sets aside the items of groups whose index fails its MAC: their entries
    /// and records leave the vault, the groups stay (empty, under new keys: what
    /// they held may have been read or forged), the file as it was is kept in
    /// the state directory (`quarantine/<vault id>-<unix time>-<random>.vault`,
    /// never beside a vault that may sit in a git work tree) for a closer look,
    /// and the other groups are written as they were. Needs the owner's keys.
    /// Returns the groups quarantined and the kept file's path (nil when none was damaged).
    func quarantineDamagedGroups() throws -> (groups: [String], keptAt: String?) {
        try writer.withWriterLock {
            try reader.withKeys {
                var vault = WorkingCopy(try reader.readSnapshot(writing: true))
                guard vault.keys.isOwners else { throw VaultError.locked(nil) }
                guard !vault.damagedGroups.isEmpty else { return ([], nil) }
                _ = try writer.convertIfAllowed(&vault, explicitly: false)
                let directory = host.stateDirectory + "/quarantine"
                try FileSystem.makeDirectory(host.stateDirectory)
                try FileSystem.makeDirectory(directory)
                let kept =
                    directory + "/\(hex(vault.file.vaultID))-\(Int(host.now().timeIntervalSince1970))-\(hex(SecureRandom.bytes(4))).vault"
                try FileSystem.createExclusive(try readFile().allBytes, at: kept)
                let names = try vault.quarantineDamagedGroups()
                try writer.commit(&vault)
                MachineGrants.refresh(from: vault, onlyIfMissing: false, host: host)
                return (names, kept)
            }
        }
    }

    /// Removes the vault file, its sessions (with `loginKeyring`, the login keyring's key too), after-first-unlock cache and device
    /// key (and what earlier versions kept beside it: its lock file, and the
    /// shared device key when no other vault in the directory uses it); then
    /// the directory, if that leaves it empty. Needs no unlock.
    func reset(loginKeyring: Bool) throws -> ResetOutcome {
        guard try location.exists else { throw VaultError.noSuchVault(path: location.path) }
        return try writer.withWriterLock {
            var outcome = ResetOutcome(removedPaths: [], sessionsEnded: 0)
            let bytes = (try? FileSystem.read(location.path, requirePrivate: false, missing: .noSuchVault(path: location.path))) ?? []
            // Whatever sits at a mistaken path (a link to a document, say) is not reset: only a vault is.
            guard bytes.starts(with: VaultFile.magic) else {
                throw VaultError.corrupted(path: location.path, detail: .violates(.notAVaultFileToReset))
            }
            let vaultID = VaultFile.peekVaultID(bytes)
            if !vaultID.isEmpty {
                outcome.sessionsEnded = SessionCache.endAll(vaultID: vaultID, host: host)
                if loginKeyring { LoginKeyring.remove(vaultID: vaultID) }
                AfterFirstUnlockCache.remove(vaultID: vaultID, host: host)
                // Clones of a vault in git share its id, and so its device key: another clone may still need it.
                if !GitWorkTree.contains(location.directory) {
                    if let removed = DeviceKeyStore.remove(vaultID: vaultID, host: host) { outcome.removedPaths.append(removed) }
                    SeenCounters.forget(vaultID: vaultID, host: host)
                }
            }
            let vaultName = String(location.path.split(separator: "/").last ?? "")
            let otherVaults = FileSystem.list(location.directory).filter { $0.hasSuffix(".vault") && $0 != vaultName }
            var doomed = [location.path]
            if otherVaults.isEmpty { doomed.append(location.legacyDeviceKeyPath) }
            for path in doomed where FileSystem.exists(path) {
                FileSystem.wipeAndRemove(path)
                outcome.removedPaths.append(path)
            }
            FileSystem.syncDirectory(location.directory)
            // The directory's lock file goes too when nothing is left to lock (computed before rmdir frees its inode).
            let lockPath = try VaultWriter.writerLockPath(of: location, host: host)
            if FileSystem.list(location.directory).isEmpty, rmdir(location.directory) == 0 {
                outcome.removedPaths.append(location.directory)
                FileSystem.remove(lockPath)
            }
            return outcome
        }
    }
}
