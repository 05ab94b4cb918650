import Foundation
import Testing
import VaultTestSupport

/// The random driver of a convergence run: its state (the team, the writes, what the remote holds),
/// its random numbers and log, each person's turn, and the final rounds of syncs.
extension TeamConvergenceTests {
    final class Run {
        typealias Key = TeamConvergenceTests.Key
        typealias Write = TeamConvergenceTests.Write
        typealias Member = TeamConvergenceTests.Member
        typealias Person = TeamConvergenceTests.Person
        typealias Observed = TeamConvergenceTests.Observed
        typealias Audit = TeamConvergenceTests.Audit
        typealias Sync = TeamSyncTests

        var random: SeededGenerator
        let seed: UInt64
        let team: TeamSyncTests.Team
        var members: [Member] = []
        let auditor: Person
        let probe: Person
        let zedRecipient: String
        var writes: [Write] = []
        var acknowledged: Set<Int> = []
        /// The writes the remote's file holds.
        var remoteKnows: Set<Int> = []
        var log: [String] = []
        var problems: [String] = []
        var step = 0
        var audits: [String: Audit] = [:]
        var counts: [String: Int] = [:]
        /// The remote's head when a plain `git push` put a vault file there that drops team log entries,
        /// until the owner's sync repairs it.
        var rolledBack: String?
        /// The vault files (blob ids) of commits a plain `git push` sent: a clone's own commits, which
        /// may be sealed before it learned of a removal (docs/TEAMS.md, "does not hold").
        var handPushedFiles: Set<String> = []
        /// A plain `git push` put a file back on the remote whose items are older than a machine may have
        /// seen (the team log whole): such a machine refuses changes until a newer write reaches it.
        var itemsPutBack = false
        /// The scoped writer's branches pushed with `vault sync --branch`, not yet merged by an owner machine.
        var scopedBranches: [(name: String, knows: Set<Int>)] = []
        /// The last sync was the scoped writer's, refused (30) because it needed a merge.
        var lastSyncNeededAMerge = false
        static let account = "acct"
        static let pool: [String: [String]] = ["default": ["pool0", "pool1", "pool2", "pool3", "pool4"], "ci": ["ci0", "ci1", "ci2"]]

        init(random: SeededGenerator, team: TeamSyncTests.Team, auditor: Person, probe: Person, zedRecipient: String) {
            self.random = random
            seed = random.seed
            self.team = team
            self.auditor = auditor
            self.probe = probe
            self.zedRecipient = zedRecipient
        }

        func pick(_ count: Int) -> Int { Int(random.next() % UInt64(count)) }
        func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }
        func shuffled<T>(_ array: [T]) -> [T] {
            var result = array
            for index in stride(from: result.count - 1, to: 0, by: -1) { result.swapAt(index, pick(index + 1)) }
            return result
        }

        func note(_ line: String) { log.append(line) }
        func problem(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
            problems.append("step \(step): \(text)")
            Issue.record("step \(step): \(text)\nseed \(seed) (VAULT_TEST_SEED=\(seed) repeats it)", sourceLocation: sourceLocation)
        }
        func count(_ what: String) { counts[what, default: 0] += 1 }

        static func firstLines(_ result: RunResult) -> String {
            let text = (result.stderr + result.stdoutText).split(separator: "\n").prefix(6).joined(separator: " | ")
            return text.count > 600 ? String(text.prefix(600)) + "…" : text
        }
        func logged(_ who: Member, _ command: String, _ result: RunResult) {
            note(
                "  \(who.name): \(command) → \(result.status)\(result.status == 0 && result.stderr.isEmpty ? "" : ": " + Self.firstLines(result))"
            )
        }

        // MARK: git state

        func remoteHead() throws -> String { try team.remoteHead().trimmingCharacters(in: .whitespacesAndNewlines) }
        func head(_ m: Member) throws -> String { try m.person.head().trimmingCharacters(in: .whitespacesAndNewlines) }
        func mergeInProgress(_ m: Member) throws -> Bool { try m.person.git(["rev-parse", "-q", "--verify", "MERGE_HEAD"]).status == 0 }
        func rebaseInProgress(_ m: Member) -> Bool {
            ["rebase-merge", "rebase-apply"].contains { FileManager.default.fileExists(atPath: m.person.project + "/.git/" + $0) }
        }
        /// The operation git holds unfinished in the clone, by the file git keeps for it; nil when none.
        func operationInProgress(_ m: Member) -> String? {
            let signs = [
                ("MERGE_HEAD", "a merge"), ("rebase-merge", "a rebase"), ("rebase-apply", "a rebase"),
                ("CHERRY_PICK_HEAD", "a cherry-pick"), ("REVERT_HEAD", "a revert")
            ]
            return signs.first { FileManager.default.fileExists(atPath: m.person.project + "/.git/" + $0.0) }?.1
        }

        func turn(_ m: Member) throws {
            step += 1
            switch m.role {
            case .owner:
                let roll = pick(100)
                note("step \(step): \(m.name)")
                if roll < 38 {
                    try itemChange(m)
                } else if roll < 48 {
                    try memberChange(m)
                } else if roll < 53 {
                    try groupChange(m)
                } else if roll < 70 {
                    try gitWork(m)
                } else if !scopedBranches.isEmpty, chance(50) {
                    try mergeScopedBranches(m)
                } else {
                    try sync(m, rebase: chance(50))
                }
            case .writer:
                let roll = pick(100)
                note("step \(step): \(m.name)\(m.out ? " (removed)" : "")")
                if roll < 42 {
                    try itemChange(m)
                } else if roll < 46 {
                    try memberAddByAMember(m)
                } else if roll < 70, !m.out {
                    try gitWork(m)
                } else {
                    try sync(m, rebase: chance(50))
                }
            case .reader:
                note("step \(step): \(m.name)\(m.out ? " (removed)" : "")")
                guard chance(65), try cloneIfMember(m) else { return }
                if chance(15) { try sync(m, rebase: false, killedAfter: killDelay()) } else { try sync(m, rebase: chance(40)) }
            case .ci:
                note("step \(step): \(m.name)")
                if chance(60) { try ciReads(m) }
            case .scoped:
                note("step \(step): \(m.name)\(m.out ? " (removed)" : "")")
                if chance(50) { try itemChange(m) } else { try scopedSync(m) }
            }
        }

        /// Two rounds of `vault sync` by everyone still a member. The owner's machines go first in the first
        /// round (in a random order, after the scoped writer, whose branch they merge), so that the roster is
        /// settled when the others sync: a member the owner's join adds back then syncs in the first round,
        /// and the second round only fast-forwards.
        func finalRounds() throws {
            for round in 1...2 {
                note("final round \(round)")
                let syncing = members.filter { $0.role != .ci }
                // The scoped writer first in round 1: its branch pushed, the owner's machines merge it.
                let order =
                    round == 1
                    ? syncing.filter { $0.role == .scoped } + shuffled(syncing.filter { $0.role == .owner })
                        + shuffled(syncing.filter { $0.role != .owner && $0.role != .scoped }) : shuffled(syncing)
                for m in order {
                    step += 1
                    if m.role != .owner {
                        guard try audit(try remoteHead()).roster[m.name] != nil else {
                            note("step \(step): \(m.name) is not a member: no sync")
                            continue
                        }
                        guard try cloneIfMember(m) else { continue }
                    }
                    note("step \(step): \(m.name)")
                    switch m.role {
                    case .owner: try mergeScopedBranches(m)
                    case .scoped: try scopedSync(m)
                    default: try sync(m, rebase: false)
                    }
                }
            }
        }
    }
}
