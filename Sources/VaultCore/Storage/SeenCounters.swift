/// What this machine has seen of one vault (by vault id): its highest key
/// epoch and, at that epoch, the highest write generation and group
/// generations. A file below them was rolled back or spliced. Kept in the
/// XDG state directory as lines of text (`epoch N`, `generation N`, `write-id HEX`,
/// `group ID N`, `previous N`, `copy PATH`), written atomically; recorded after a write is
/// renamed into place and its directory synced, or after a read whose counters a
/// write key checked (the header MAC, or a group's index MAC), or (the key
/// epoch alone) an identity's read whose trust statement checked.
///
/// A write that raises the key epoch (rekey, revoke, member removal, a rotating
/// passwd) records the new epoch durably before its file is renamed into place,
/// with `previous N`: until the write is done, a file at the epoch it raised from
/// is still the vault's (a crash or a failed rename leaves it). The write clears
/// `previous` once its file is in place; a read that a write key checks resolves
/// it too: the new epoch proves the write landed, the old one that it did not.
///
/// With the write generation it keeps the write id of the file at it: another file at the same
/// counters is a sibling (another clone's write from the same base), not this vault as seen. A
/// record with no `write-id` line (older builds wrote none) reads as one with no write id, and
/// takes the write id of the next file at its write generation that a write key vouches for.
struct SeenCounters: Equatable {
    var keyEpoch: UInt64 = 0
    var writeGeneration: UInt64 = 0
    /// The write id of the file seen at `writeGeneration` (v3); nil for a v2 file or an older record.
    var writeID: WriteID?
    var groupGenerations: [GroupID: UInt64] = [:]
    /// The key epoch a write in flight raised `keyEpoch` from: a file there is accepted until the write resolves.
    var previousEpoch: UInt64?
    /// The real path of the copy of the vault written last on this machine: a write to another
    /// copy (`cp`, the same vault id) makes that one read as older here.
    var writtenCopy: String?

    /// The counters of `file`, as it holds them: its header's, and the generations of `groups`.
    init(of file: VaultFile, groups: Set<GroupID>) {
        keyEpoch = file.keyEpoch
        writeGeneration = file.writeGeneration
        writeID = WriteID(file.writeID)
        for (group, section) in zip(file.groups, file.sections) where groups.contains(group.groupID) {
            groupGenerations[group.groupID] = section.generation
        }
    }

    init() {}

    /// Counters of a key epoch alone: what a reader that checked the trust statement, not the header MAC, knows.
    init(keyEpoch: UInt64) {
        self.keyEpoch = keyEpoch
    }

    static func path(vaultID: [UInt8], host: HostContext) -> String {
        host.stateDirectory + "/seen/" + hex(vaultID)
    }

    /// What this machine remembers of `vaultID`; nothing (all zero) when it has not seen it. A
    /// record that is there but cannot be read throws: taking it for none would skip the rollback check.
    /// So does one that someone else could have changed — the record, `seen/`, the state directory or
    /// its parent writable by others or owned by another user (root excepted) —, as the config is
    /// refused: whoever writes it decides which old copy of a vault opens here.
    static func load(vaultID: [UInt8], host: HostContext) throws -> SeenCounters {
        var seen = SeenCounters()
        let bytes: [UInt8]
        for directory in [FileSystem.directoryOf(host.stateDirectory), host.stateDirectory] {
            try FileSystem.refuseWritableByOthers(directory: directory, requiringTrustedOwner: true)
        }
        do {
            bytes = try FileSystem.readSettings(path(vaultID: vaultID, host: host), missing: .noSuchVault(path: ""))
        } catch VaultError.storage(.noSuchVault) {
            return seen
        }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let words = line.split(separator: " ")
            switch (words.first, words.count) {
            case ("epoch", 2): seen.keyEpoch = UInt64(words[1]) ?? 0
            case ("generation", 2): seen.writeGeneration = UInt64(words[1]) ?? 0
            case ("write-id", 2): seen.writeID = WriteID(hex: words[1])
            case ("previous", 2): seen.previousEpoch = UInt64(words[1])
            case ("copy", _) where words.count > 1: seen.writtenCopy = String(line.dropFirst(5))
            case ("group", 3):
                if let id = UInt32(words[1]), let generation = UInt64(words[2]) { seen.groupGenerations[GroupID(id)] = generation }
            default: continue
            }
        }
        return seen
    }

    /// Forgets what this machine has seen of `vaultID` (for `reset`).
    static func forget(vaultID: [UInt8], host: HostContext) {
        let path = path(vaultID: vaultID, host: host)
        for file in [path, path + ".lock"] where FileSystem.exists(file) { FileSystem.remove(file) }
    }

    /// Records what this machine has seen of `vaultID` as `change` makes it of what is recorded,
    /// under a lock beside the record (reloaded there): a reader racing a writer merges with what
    /// the writer recorded, never writes over it. Best effort: a state directory that cannot be
    /// written leaves the record as it was.
    static func update(vaultID: [UInt8], host: HostContext, _ change: (SeenCounters) -> SeenCounters) {
        try? record(vaultID: vaultID, host: host, change)
    }

    /// `update`, throwing when the record cannot be written: for what a write must have recorded
    /// before it may say it is done (a raised key epoch, before and after its rename).
    static func record(vaultID: [UInt8], host: HostContext, _ change: (SeenCounters) -> SeenCounters) throws {
        let directory = host.stateDirectory + "/seen"
        try FileSystem.makeDirectory(host.stateDirectory)
        try FileSystem.makeDirectory(directory)
        let lock = try LockFile(path: path(vaultID: vaultID, host: host) + ".lock")
        defer { withExtendedLifetime(lock) {} }
        // Every writer of the record holds this lock: a temp file of one that failed or was killed can go.
        FileSystem.removeAbandonedTemporaries(of: path(vaultID: vaultID, host: host), directory: directory)
        let current = try load(vaultID: vaultID, host: host)
        let next = change(current)
        // A key epoch raised, or a write in flight begun or resolved, is synced: losing it would let a pre-revoke copy in.
        let durably = next.keyEpoch > current.keyEpoch || next.previousEpoch != current.previousEpoch
        if next != current { try next.save(vaultID: vaultID, host: host, durably: durably) }
    }

    /// The record of a write about to rename `file` over one at key epoch `replaced`: the new
    /// file's counters, with `replaced` as `previous`, when it raises the recorded key epoch; nil
    /// when it does not.
    func raised(to file: VaultFile, groups: Set<GroupID>, replacing replaced: UInt64) -> SeenCounters? {
        guard file.keyEpoch > keyEpoch else { return nil }
        var next = SeenCounters(of: file, groups: groups)
        next.previousEpoch = replaced
        next.writtenCopy = writtenCopy
        return next
    }

    /// Writes these counters as what this machine has seen of `vaultID` (`update` holds the lock).
    private func save(vaultID: [UInt8], host: HostContext, durably: Bool) throws {
        let directory = host.stateDirectory + "/seen"
        try FileSystem.makeDirectory(host.stateDirectory)
        try FileSystem.makeDirectory(directory)
        var text = "epoch \(keyEpoch)\ngeneration \(writeGeneration)\n"
        if let writeID { text += "write-id \(writeID.hex)\n" }
        for (id, generation) in groupGenerations.sorted(by: { $0.key < $1.key }) { text += "group \(id) \(generation)\n" }
        if let previousEpoch { text += "previous \(previousEpoch)\n" }
        if let writtenCopy, !writtenCopy.contains("\n") { text += "copy \(writtenCopy)\n" }
        // A new key epoch (a re-key, a revoke) is synced: losing it would let a pre-revoke copy in.
        // Generations, raised by every write, are not (only their data is, before the rename, so the
        // file is never left empty and the epoch it holds never lost): a crash that loses one leaves lower counters,
        // which never refuse a file (the vault file they follow is already synced), but let an older
        // copy at the same epoch in unnoticed, and its counters be recorded then.
        let path = SeenCounters.path(vaultID: vaultID, host: host)
        if durably {
            try FileSystem.writeAtomically(Array(text.utf8), to: path, directory: directory)
        } else {
            try FileSystem.replaceAtomically(Array(text.utf8), at: path, directory: directory)
        }
    }

    /// Where `file` stands against what was seen: behind in epoch (rolled back), behind in a
    /// generation at the same epoch (an older or spliced copy), another write at the same write
    /// generation (a sibling: another clone's write from the same base), or none of these.
    func judge(_ file: VaultFile) -> Judgement {
        if file.keyEpoch < keyEpoch { return file.keyEpoch == previousEpoch ? .current : .olderEpoch }
        guard file.keyEpoch == keyEpoch else { return .current }
        if file.writeGeneration < writeGeneration { return .behind(found: file.writeGeneration, seen: writeGeneration) }
        for (group, section) in zip(file.groups, file.sections) {
            if let seen = groupGenerations[group.groupID], section.generation < seen {
                return .behind(found: section.generation, seen: seen)
            }
        }
        if file.writeGeneration == writeGeneration, let writeID, let found = WriteID(file.writeID), found != writeID {
            return .sibling(found: found, seen: writeID)
        }
        return .current
    }

    enum Judgement: Equatable {
        case current
        case olderEpoch
        case behind(found: UInt64, seen: UInt64)
        case sibling(found: WriteID, seen: WriteID)
    }

    /// These counters with the generations of `groups` raised to `file`'s (same epoch), the header's left as they are.
    func merging(groupGenerationsOf file: VaultFile, groups: Set<GroupID>) -> SeenCounters {
        var next = self
        for (group, section) in zip(file.groups, file.sections) where groups.contains(group.groupID) {
            next.groupGenerations[group.groupID] = max(groupGenerations[group.groupID] ?? 0, section.generation)
        }
        return next
    }

    /// These counters raised to `file`'s (the generations of `groups` only): a higher epoch
    /// replaces everything; the same epoch takes each maximum.
    /// A file at the epoch a write in flight raised from resolves it the other way: that write did not land.
    func merging(_ file: VaultFile, groups: Set<GroupID>) -> SeenCounters {
        if file.keyEpoch > keyEpoch || file.keyEpoch == previousEpoch {
            var next = SeenCounters(of: file, groups: groups)
            next.writtenCopy = writtenCopy
            return next
        }
        guard file.keyEpoch == keyEpoch else { return self }
        var next = self
        next.previousEpoch = nil
        // The write id follows the write generation; at the same one, the first seen stays (another is a sibling).
        if file.writeGeneration > writeGeneration || (file.writeGeneration == writeGeneration && writeID == nil) {
            next.writeID = WriteID(file.writeID)
        }
        next.writeGeneration = max(writeGeneration, file.writeGeneration)
        for (group, section) in zip(file.groups, file.sections) where groups.contains(group.groupID) {
            next.groupGenerations[group.groupID] = max(groupGenerations[group.groupID] ?? 0, section.generation)
        }
        return next
    }
}
