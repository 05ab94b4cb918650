/// What this machine has seen of one vault (by vault id): its highest key
/// epoch and, at that epoch, the highest write generation and group
/// generations. A file below them was rolled back or spliced. Kept in the
/// XDG state directory as lines of text (`epoch N`, `generation N`,
/// `group ID N`), written atomically; recorded only after a write is renamed
/// into place and its directory synced, or after a read whose counters a
/// write key checked (the header MAC, or a group's index MAC), or (the key
/// epoch alone) an identity's read whose trust statement checked.
struct SeenCounters: Equatable {
    var keyEpoch: UInt64 = 0
    var writeGeneration: UInt64 = 0
    var groupGenerations: [GroupID: UInt64] = [:]

    /// The counters of `file`, as it holds them: its header's, and the generations of `groups`.
    init(of file: VaultFile, groups: Set<GroupID>) {
        keyEpoch = file.keyEpoch
        writeGeneration = file.writeGeneration
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

    /// What this machine remembers of `vaultID`; nothing (all zero) when it has not seen it.
    static func load(vaultID: [UInt8], host: HostContext) -> SeenCounters {
        var seen = SeenCounters()
        guard let bytes = try? FileSystem.read(path(vaultID: vaultID, host: host), requirePrivate: false,
                                               missing: .noSuchVault(path: "")) else { return seen }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let words = line.split(separator: " ")
            switch (words.first, words.count) {
            case ("epoch", 2): seen.keyEpoch = UInt64(words[1]) ?? 0
            case ("generation", 2): seen.writeGeneration = UInt64(words[1]) ?? 0
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
        let directory = host.stateDirectory + "/seen"
        guard (try? FileSystem.makeDirectory(host.stateDirectory)) != nil, (try? FileSystem.makeDirectory(directory)) != nil,
              let lock = try? LockFile(path: path(vaultID: vaultID, host: host) + ".lock") else { return }
        defer { withExtendedLifetime(lock) {} }
        let current = load(vaultID: vaultID, host: host)
        let next = change(current)
        if next != current { try? next.save(vaultID: vaultID, host: host, durably: next.keyEpoch > current.keyEpoch) }
    }

    /// Writes these counters as what this machine has seen of `vaultID` (`update` holds the lock).
    private func save(vaultID: [UInt8], host: HostContext, durably: Bool) throws {
        let directory = host.stateDirectory + "/seen"
        try FileSystem.makeDirectory(host.stateDirectory)
        try FileSystem.makeDirectory(directory)
        var text = "epoch \(keyEpoch)\ngeneration \(writeGeneration)\n"
        for (id, generation) in groupGenerations.sorted(by: { $0.key < $1.key }) { text += "group \(id) \(generation)\n" }
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
    /// generation at the same epoch (an older or spliced copy), or not behind.
    func judge(_ file: VaultFile) -> Judgement {
        if file.keyEpoch < keyEpoch { return .olderEpoch }
        guard file.keyEpoch == keyEpoch else { return .current }
        if file.writeGeneration < writeGeneration { return .behind(found: file.writeGeneration, seen: writeGeneration) }
        for (group, section) in zip(file.groups, file.sections) {
            if let seen = groupGenerations[group.groupID], section.generation < seen { return .behind(found: section.generation, seen: seen) }
        }
        return .current
    }

    enum Judgement: Equatable {
        case current
        case olderEpoch
        case behind(found: UInt64, seen: UInt64)
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
    func merging(_ file: VaultFile, groups: Set<GroupID>) -> SeenCounters {
        if file.keyEpoch > keyEpoch { return SeenCounters(of: file, groups: groups) }
        guard file.keyEpoch == keyEpoch else { return self }
        var next = self
        next.writeGeneration = max(writeGeneration, file.writeGeneration)
        for (group, section) in zip(file.groups, file.sections) where groups.contains(group.groupID) {
            next.groupGenerations[group.groupID] = max(groupGenerations[group.groupID] ?? 0, section.generation)
        }
        return next
    }
}
