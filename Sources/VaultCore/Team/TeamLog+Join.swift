import VaultCrypto

/// Two logs that diverged, joined by the owner (docs/TEAMS.md, "How a merge works").
extension TeamLog {
    /// What a join made of two branches' members.
    struct Join {
        /// Both branches' entries and the join entry.
        let log: TeamLog
        /// Members the two branches defined differently since they diverged (one removed what the
        /// other changed, or both changed it, or two took one name): left out, to be added again.
        let leftOut: [String]
    }

    /// The latest entry both logs hold (the highest key epoch, the lower hash on a tie); nil when
    /// they share none (two files each converted on its own).
    func latestCommonEntry(with other: TeamLog) -> [UInt8]? {
        let theirs = Set(other.hashes)
        return zip(hashes, entries).filter { theirs.contains($0.0) }
            .max { a, b in a.1.keyEpoch != b.1.keyEpoch ? a.1.keyEpoch < b.1.keyEpoch : b.0.lexicographicallyPrecedes(a.0) }?.0
    }

    /// The recipients whose membership an entry this log holds and `other` lacks changed, on every
    /// branch. A join entry changed a member only where it stands otherwise than in each parent (left
    /// out); the rest it took from a branch, whose own entries count where `other` lacks them.
    func touchedRecipients(notIn other: TeamLog) throws -> Set<AgeRecipient> {
        let states = try states(), known = Set(other.hashes)
        var touched = Set<AgeRecipient>()
        for (hash, entry) in zip(hashes, entries) where !known.contains(hash) {
            let after = states[hash]?.members ?? []
            let before = entry.parents.map { states[$0]?.members ?? [] }
            for recipient in Set((before.joined() + after).map(\.recipient)) {
                let now = after.first { $0.recipient == recipient }
                if before.allSatisfy({ members in members.first { $0.recipient == recipient } != now }) { touched.insert(recipient) }
            }
        }
        return touched
    }

    /// `self` and `other` (neither descending from the other, payloads open) joined: every entry of
    /// both, the branch with the lower head first, then a join entry naming both heads whose roster is
    /// each member merged three ways against the latest common entry — a member changed by entries
    /// of one branch only takes that change, one that ends the same on both is kept, one changed on
    /// both and ending differently (removed on one, added back or changed on the other) is left out. The same entry whichever log is `self`:
    /// nothing in it is random or a time.
    func joined(with other: TeamLog) throws -> Join {
        let (first, second) = head.lexicographicallyPrecedes(other.head) ? (self, other) : (other, self)
        let common = latestCommonEntry(with: other)
        let firstStates = try first.states(), secondStates = try second.states()
        let fork = common.flatMap { firstStates[$0] }?.members
        let mine = firstStates[first.head]?.members ?? [], theirs = secondStates[second.head]?.members ?? []
        let touchedFirst = try first.touchedRecipients(notIn: second), touchedSecond = try second.touchedRecipients(notIn: first)
        var roster: [Member] = []
        var leftOut: [String] = []
        let recipients = (fork ?? []).map(\.recipient) + mine.map(\.recipient) + theirs.map(\.recipient)
        var seen = Set<AgeRecipient>()
        for recipient in recipients where seen.insert(recipient).inserted {
            let base = fork?.first { $0.recipient == recipient }
            let a = mine.first { $0.recipient == recipient }, b = theirs.first { $0.recipient == recipient }
            // A member is changed on a branch when an entry there changed it, even back to what it was:
            // a removal and an adding back on one branch against an adding back on the other is no agreement.
            let merged: Member?
            if a == b {
                merged = a
            } else if fork != nil, !touchedFirst.contains(recipient) {
                merged = b
            } else if fork != nil, !touchedSecond.contains(recipient) {
                merged = a
            } else {
                // Changed on both branches differently, or (no common entry) known to one branch only.
                leftOut.append((a ?? b ?? base)!.name)
                continue
            }
            if let merged { roster.append(merged) }
        }
        // Two recipients under one name: neither is kept.
        let names = Dictionary(grouping: roster, by: \.name).filter { $0.value.count > 1 }.keys
        leftOut += names.sorted()
        roster.removeAll { names.contains($0.name) }
        roster.sort { $0.name < $1.name }

        var log = first
        for index in second.entries.indices where !log.hashes.contains(second.hashes[index]) {
            log.adopt(entryAt: index, of: second)
        }
        log.append(
            .joined(roster: roster), keyEpoch: max(first.headEpoch, second.headEpoch) + 1,
            parents: [first.head, second.head])
        return Join(log: log, leftOut: Array(Set(leftOut)).sorted())
    }
}

extension TeamLog {
    /// Whether the team log of the vault file `bytes` holds the whole log of each of `parents`,
    /// read from the logs' clear parts (`Vault.teamLogHolds`).
    static func ofFile(_ bytes: [UInt8], holdsTheLogsOf parents: [[UInt8]]) -> Bool {
        guard let log = try? VaultFile.decode(FileBytes(bytes)).file.teamLog else {
            return parents.allSatisfy { (try? VaultFile.decode(FileBytes($0)).file.teamLog) == nil }
        }
        return parents.allSatisfy { parent in
            guard let parentLog = try? VaultFile.decode(FileBytes(parent)).file.teamLog else { return true }
            return log.descends(from: parentLog)
        }
    }
}
