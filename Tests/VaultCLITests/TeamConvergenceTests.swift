import Foundation
import Testing
import VaultTestSupport

/// Convergence of a team working on one vault through git, end to end with the built binary and
/// real git, on the harness of `TeamSyncTests` (a bare remote; a HOME, a clone and keys of their own
/// for each person). The team: the owner alice on two machines (her laptop, `makeTeam()`'s alice,
/// and her desk: another HOME and clone, the same passphrase file), bob and carol (full members,
/// writers), dave (a full member who never writes items), erin (a full member the owner adds during
/// the run), and ci-runner (a read-only member of group ci, which only pulls and reads).
///
/// Each round every person, in a random order, does one random thing: the writers add, update,
/// delete, rename or resolve items of a small pool (groups default and ci), or move an item they list
/// into another group (default, ci, tmp: `rename --to-group`); the owner's machines also remove members
/// and add them back (erin: add), revoke a group and delete group tmp with its items
/// (TeamConvergenceTests+Groups); a full member's `member add` must get 30;
/// people sync, some with `vault sync` (a merge), some with `git pull --rebase` followed by `vault
/// sync` (which, in a rebase, merges the vault file at each stop and finishes the rebase); the
/// owner's syncs carry `--accept-log` (a join of diverged team logs asks otherwise, and a test has
/// no terminal); ci-runner pulls and reads group ci. Then two rounds of `vault sync` by everyone
/// still a member. What must hold:
///
/// - every clone still a member at one commit, the remote's; the same items (every item listed,
///   its secret, and every version its conflicts keep) and the same roster in every clone of the
///   owner and of a full member; ci-runner, still a member, reads group ci as the owner does;
/// - no acknowledged write lost without a conflict: a write is acknowledged when a `vault sync` of
///   its author after it exited 0 (writes made after the author's removal, before it synced again
///   as a member, never are). An acknowledged write no later write in the final file replaced
///   (one whose author had it when writing) keeps its secret readable (`get`, `get --theirs`,
///   `get --conflict N`); an item in no conflict holds the secret of a write no other replaced,
///   and an item whose last write was an acknowledged deletion is gone or in conflict;
/// - a removed member's identity opens nothing written after its removal: after every sync of
///   the owner that pushed, and at the end, `vault get` of an item of the remote's file with the
///   identity of each person its roster lacks fails; and at the end, over every commit of the remote
///   and of every clone (TeamConvergenceTests+EveryCommit), a member out at the end opens nothing
///   first written after its removal reached the remote, neither with its identity through the CLI
///   nor with the keys of every slot it ever had through the independent reader `vault_v3.py`
///   (seen biting: with sync's fetch-first merge taken out, seed 7 has ci-runner open two later
///   secrets in a remote commit);
/// - a sync refused is refused for a reason the docs give: a person no longer in the remote's
///   roster (removed; its later writes are not acknowledged), a write while git holds a merge
///   unfinished (2), a full member's `member add` (30), a change in a clone that fast-forwarded
///   onto its author's removal (51: a sync that only fast-forwards opens no file but the clone's,
///   so a removed member's can exit 0). Any other failure is a finding; a sync that pushed a file
///   whose roster lacks the person who pushed it is one too.
///
/// The owner's syncs also carry `--kdf-cost testing`: a join that re-keys re-makes the passphrase
/// keyslot, at the interactive scrypt cost otherwise (a second for every later command).
///
/// `VAULT_TEST_SEED` repeats a run; `VAULT_CONVERGENCE_ROUNDS` sets the number of rounds (12);
/// `VAULT_CONVERGENCE_LOG=1` prints every step (it is printed anyway when the property fails).
@Suite struct TeamConvergenceTests {
    typealias Sync = TeamSyncTests
    typealias Person = TeamSyncTests.Person

    /// An item by group, service and account.
    struct Key: Hashable, Comparable, CustomStringConvertible {
        let group: String
        let service: String
        let account: String
        var description: String { "\(group)/\(service)/\(account)" }
        static func < (a: Key, b: Key) -> Bool { (a.group, a.service, a.account) < (b.group, b.service, b.account) }
    }

    /// One change of items that exited 0: what it removed from a name and what it put under one.
    struct Write: CustomStringConvertible {
        let id: Int
        let author: String
        let step: Int
        let removes: Key?
        let sets: (key: Key, value: String)?
        /// The writes the author's clone held when it made this one.
        let knows: Set<Int>
        /// Made while the author was a member as far as the owner's changes go (not after a removal).
        let eligible: Bool
        /// For a delete or a resolve, which drop every version of the item: the secrets the author's clone
        /// showed under that name just before (`get`, `get --conflict N`), a concurrent rename's among them.
        var dropped: Set<String> = []
        func touches(_ key: Key) -> Bool { removes == key || sets?.key == key }
        var description: String {
            "w\(id) by \(author) at step \(step): " + [removes.map { "removes \($0)" }, sets.map { "sets \($0.key) = \($0.value)" }]
                .compactMap { $0 }.joined(separator: ", ")
        }
    }

    enum Role { case owner, writer, reader, ci }

    final class Member {
        let person: Person
        let role: Role
        var hasClone: Bool
        var recipient: String?
        /// `member add` arguments after the recipient.
        let scope: [String]
        /// The writes this clone holds (what its file was merged from), over-approximated after a failed sync.
        var knows: Set<Int> = []
        /// Its writes not yet acknowledged.
        var pending: [Int] = []
        /// Removed by an owner machine, and not yet synced as a member since it was added back.
        var out = false
        var addedBack = false
        var removedAtStep: Int?
        /// The step of the first sync that exited 0 with the remote's roster lacking it, since `removedAtStep`.
        var removalPublishedAtStep: Int?
        var name: String { person.name }

        init(_ person: Person, _ role: Role, hasClone: Bool, scope: [String] = []) {
            self.person = person
            self.role = role
            self.hasClone = hasClone
            self.scope = scope
        }
    }

    /// What `vault` shows of one item: its current secret, whether `vault conflicts` lists it, and every other version it keeps.
    struct Observed: Equatable, CustomStringConvertible {
        var getStatus: Int32
        var current: String?
        var conflicted: Bool
        var theirsStatus: Int32
        var theirs: String?
        var versions: [String?] = []
        var visible: Set<String> { Set(([current, theirs] + versions).compactMap { $0 }) }
        var description: String {
            "get \(getStatus) \(current ?? "-")\(conflicted ? ", in conflict" : ""), --theirs \(theirsStatus) \(theirs ?? "-")"
                + (versions.isEmpty ? "" : ", --conflict \(versions.map { $0 ?? "deleted" })")
        }
    }

    /// The remote's file as the owner's passphrase reads it (on a machine of its own, which only reads).
    struct Audit {
        var roster: [String: String]  // name → scope
        var items: [Key]
    }

    final class Run {
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
            note("  \(who.name): \(command) → \(result.status)\(result.status == 0 && result.stderr.isEmpty ? "" : ": " + Self.firstLines(result))")
        }

        // MARK: git state

        func remoteHead() throws -> String { try team.remoteHead().trimmingCharacters(in: .whitespacesAndNewlines) }
        func head(_ m: Member) throws -> String { try m.person.head().trimmingCharacters(in: .whitespacesAndNewlines) }
        func mergeInProgress(_ m: Member) throws -> Bool { try m.person.git(["rev-parse", "-q", "--verify", "MERGE_HEAD"]).status == 0 }
        func rebaseInProgress(_ m: Member) -> Bool {
            ["rebase-merge", "rebase-apply"].contains { FileManager.default.fileExists(atPath: m.person.project + "/.git/" + $0) }
        }

        // MARK: the remote's file, read by the owner's passphrase on a machine of its own

        func remoteFile(_ head: String) throws -> [UInt8] {
            let show = try auditor.sandbox.run("/usr/bin/git", ["--git-dir", team.remote, "show", "\(head):team.vault"], environment: auditor.env)
            guard show.status == 0 else { throw SandboxError.setupFailed("git show \(head):team.vault: \(show.stderr)") }
            return show.stdout
        }

        func audit(_ head: String) throws -> Audit {
            if let known = audits[head] { return known }
            try auditor.sandbox.write("remote.vault", try remoteFile(head))
            // --accept-rollback: the auditor reads older commits too (a clone's HEAD), after newer ones.
            let path = ["VAULT_PATH": auditor.sandbox.path("remote.vault")]
            let roster = try auditor.vault(["member", "list", "--json", "--accept-rollback"], adding: path)
            let list = try auditor.vault(["list", "--json", "--accept-rollback"], adding: path)
            var result = Audit(roster: [:], items: [])
            if roster.status != 0 || list.status != 0 {
                problem("the owner cannot read the remote's file at \(head): member list \(roster.status) \(roster.stderr); list \(list.status) \(list.stderr)")
            }
            for object in (try? JSONSerialization.jsonObject(with: Data(roster.stdout))) as? [[String: Any]] ?? [] {
                if let name = object["name"] as? String {
                    let scope = (object["scope"] as? String) ?? ((object["scope"] as? [String])?.joined(separator: ",") ?? "?")
                    result.roster[name] = scope + ((object["read_only"] as? Bool) == true ? " read-only" : "")
                }
            }
            result.items = Self.keys(list)
            audits[head] = result
            return result
        }

        static func keys(_ list: RunResult) -> [Key] {
            var keys: [Key] = []
            for object in (try? JSONSerialization.jsonObject(with: Data(list.stdout))) as? [[String: Any]] ?? [] {
                if let service = object["service"] as? String, let account = object["account"] as? String, let group = object["group"] as? String {
                    keys.append(Key(group: group, service: service, account: account))
                }
            }
            return keys.sorted()
        }

        /// Every person the remote's roster lacks (and who has an identity): `vault get` of an item of that
        /// file with their identity must fail. An item written after their removal is tried when there is one.
        func probeRemovedIdentities(_ head: String) throws {
            let seen = try audit(head)
            guard !seen.items.isEmpty else { return }
            var wrote = false
            for m in members where m.role != .owner && m.recipient != nil && seen.roster[m.name] == nil {
                if !wrote {
                    try probe.sandbox.write("remote.vault", try remoteFile(head))
                    wrote = true
                }
                let after = m.removedAtStep.map { removed in
                    seen.items.filter { key in self.writes.contains { $0.sets?.key == key && $0.step > removed && self.remoteKnows.contains($0.id) } }
                } ?? []
                let candidates = after.isEmpty ? seen.items : after
                let key = candidates[pick(candidates.count)]
                let result = try probe.vault(["get", "-s", key.service, "-a", key.account, "--group", key.group],
                                             adding: ["VAULT_IDENTITY": m.person.env["VAULT_IDENTITY"]!, "VAULT_PATH": probe.sandbox.path("remote.vault")])
                note("  probe: \(m.name)'s identity, removed, get \(key) of the remote's \(head.prefix(8))\(after.isEmpty ? "" : " (written after the removal)") → \(result.status)")
                count("probes of removed identities")
                if result.status == 0 {
                    problem("\(m.name), not in the roster of the remote's file at \(head), read \(key) with its identity: \(String(reflecting: result.stdoutText))")
                }
            }
        }

        // MARK: actions

        /// `vault sync` as this person runs it: the owner with --accept-log, and the test's scrypt cost for the
        /// passphrase keyslot a join re-makes when it re-keys (the default, interactive, takes a second a command).
        func syncArguments(_ m: Member) -> [String] { m.role == .owner ? ["sync", "--accept-log", "--kdf-cost", "testing"] : ["sync"] }

        func sync(_ m: Member, rebase: Bool) throws {
            let before = try remoteHead()
            let remoteBefore = remoteKnows
            var succeeded: Bool
            if rebase, try !mergeInProgress(m) {
                succeeded = try pullRebaseThenSync(m)
            } else {
                let result = try m.person.vault(syncArguments(m))
                logged(m, syncArguments(m).joined(separator: " "), result)
                succeeded = result.status == 0
            }
            count(rebase ? "git pull --rebase + vault sync" : "vault sync")
            m.knows.formUnion(remoteBefore)
            let after = try remoteHead()
            if succeeded {
                count("syncs that exited 0")
                remoteKnows.formUnion(m.knows)
                for x in members where x.removedAtStep != nil && x.removalPublishedAtStep == nil {
                    if try audit(after).roster[x.name] == nil { x.removalPublishedAtStep = step }
                }
                let status = try m.person.git(["status", "--porcelain", "--untracked-files=no"]).stdoutText
                if try head(m) != after || mergeInProgress(m) || rebaseInProgress(m) || !status.isEmpty {
                    problem("\(m.name): the sync exited 0 but the clone is not settled: HEAD \(try head(m)), remote \(after), merge \(try mergeInProgress(m)), rebase \(rebaseInProgress(m)), status \(String(reflecting: status))")
                }
                if m.role != .owner {
                    if try audit(after).roster[m.name] != nil {
                        if m.addedBack { m.out = false; m.addedBack = false }
                    } else if after != before {
                        problem("\(m.name): vault sync exited 0 and pushed, but the roster of the file it pushed lacks \(m.name)")
                    } else {
                        // A fast-forward opens nothing but the clone's own file: a removed member's sync can take the
                        // file that removes it, which it then cannot open.
                        note("  (\(m.name) is not in the remote's roster: its sync was a fast-forward onto a file it cannot open)")
                        count("fast-forwards of removed members")
                    }
                }
                for id in m.pending { acknowledged.insert(id) }
                m.pending = m.pending.filter { !acknowledged.contains($0) }
            } else {
                if after != before { remoteKnows.formUnion(m.knows) }
                if m.role == .owner {
                    problem("\(m.name) (the owner): the sync failed (log above)")
                } else if try audit(after).roster[m.name] != nil {
                    problem("\(m.name): the sync failed, yet the remote's roster holds \(m.name) (\(try audit(after).roster[m.name]!))")
                } else {
                    note("  (\(m.name) is not in the remote's roster: a refused sync is expected)")
                    count("syncs refused to removed members")
                }
            }
            if m.role == .owner, after != before { try probeRemovedIdentities(after) }
        }

        /// The vault file committed, `git pull --rebase` (the merge driver where the clone has it), then
        /// while git holds the rebase: `vault sync`, which finishes it (the vault file at each stop, then
        /// `git rebase --continue`) and pushes; then `vault sync`. Whether that last sync exited 0 with
        /// no rebase left.
        func pullRebaseThenSync(_ m: Member) throws -> Bool {
            if !(try m.person.git(["status", "--porcelain", "--", "team.vault"]).stdoutText.isEmpty) {
                let commit = try m.person.git(["commit", "-q", "-m", "\(m.name)'s change", "--", "team.vault"])
                logged(m, "git commit -- team.vault", commit)
            }
            let pull = try m.person.git(["pull", "--rebase"])
            logged(m, "git pull --rebase", pull)
            var rounds = 0
            while rebaseInProgress(m), rounds < 8 {
                rounds += 1
                let finish = try m.person.vault(syncArguments(m))
                logged(m, syncArguments(m).joined(separator: " ") + " (in the rebase)", finish)
                if finish.status != 0 { break }
                // sync finishes the rebase itself (docs/TEAMS.md, "What vault sync does") and pushes.
                if !rebaseInProgress(m) { break }
                problem("\(m.name): vault sync in a rebase exited 0 and left the rebase unfinished: \(finish.stderr)")
                let next = try m.person.git(["rebase", "--continue"])
                logged(m, "git rebase --continue", next)
                let unmerged = try m.person.git(["ls-files", "-u"]).stdoutText
                if next.status != 0 && rebaseInProgress(m) && unmerged.isEmpty {
                    // Nothing left to replay in this commit (its change was upstream's already).
                    let skip = try m.person.git(["rebase", "--skip"])
                    logged(m, "git rebase --skip", skip)
                }
            }
            if rebaseInProgress(m) {
                let abort = try m.person.git(["rebase", "--abort"])
                logged(m, "git rebase --abort (the rebase could not be finished)", abort)
                count("rebases aborted")
                return false
            }
            let result = try m.person.vault(syncArguments(m))
            logged(m, syncArguments(m).joined(separator: " "), result)
            return result.status == 0
        }

        /// Whether the clone's file is one that lacks this person (it fast-forwarded onto its own removal).
        func removedInOwnFile(_ m: Member) throws -> Bool {
            guard try m.person.git(["status", "--porcelain", "--", "team.vault"]).stdoutText.isEmpty else { return false }
            // HEAD is a commit of the remote's when the clone fast-forwarded; any other is not that case.
            guard let seen = try? audit(try head(m)) else { return false }
            return seen.roster[m.name] == nil
        }

        /// Exit codes an item change may legitimately end with: 0, not found (44), taken (45), or 2 while git holds a merge.
        func judgeItemChange(_ m: Member, _ what: String, _ result: RunResult) throws {
            switch result.status {
            case 0, 44, 45: return
            case 2 where try mergeInProgress(m) && result.stderr.contains("vault sync"): count("writes refused during a merge"); return
            case 51 where try removedInOwnFile(m): count("changes refused to removed members"); return
            default: problem("\(m.name): \(what) exited \(result.status): \(result.stderr)")
            }
        }

        func record(_ m: Member, removes: Key?, sets: (Key, String)?, dropped: Set<String> = []) {
            let write = Write(id: writes.count, author: m.name, step: step, removes: removes, sets: sets.map { (key: $0.0, value: $0.1) },
                              knows: m.knows, eligible: !m.out, dropped: dropped)
            writes.append(write)
            m.knows.insert(write.id)
            if write.eligible { m.pending.append(write.id) }
            note("  = \(write)\(dropped.isEmpty ? "" : ", dropping \(dropped.sorted())")\(write.eligible ? "" : " (made after \(m.name)'s removal: never acknowledged)")")
            count("item changes")
        }

        func itemChange(_ m: Member) throws {
            let group = chance(35) ? "ci" : "default"
            let names = Self.pool[group]!
            let key = Key(group: group, service: names[pick(names.count)], account: Self.account)
            let at = ["-s", key.service, "-a", key.account, "--group", key.group]
            let roll = pick(100)
            let p = m.person
            if roll < 45 {
                let value = "s\(step)-\(m.name)"
                var result = try p.vault(["add"] + at + ["-w", value])
                logged(m, "add \(key) = \(value)", result)
                if result.status == 45 {
                    result = try p.vault(["update"] + at + ["-w", value])
                    logged(m, "update \(key) = \(value)", result)
                }
                try judgeItemChange(m, "add/update \(key)", result)
                if result.status == 0 { record(m, removes: nil, sets: (key, value)) }
            } else if roll < 65 {
                let shown = try shownSecrets(p, key)
                let result = try p.vault(["delete"] + at)
                logged(m, "delete \(key)", result)
                try judgeItemChange(m, "delete \(key)", result)
                if result.status == 0 { record(m, removes: key, sets: nil, dropped: shown) }
            } else if roll < 78 {
                let others = names.filter { $0 != key.service }
                let target = Key(group: group, service: others[pick(others.count)], account: Self.account)
                let get = try p.vault(["get"] + at)
                guard get.status == 0 else {
                    logged(m, "get \(key) (to rename it)", get)
                    try judgeItemChange(m, "get \(key)", get)
                    return
                }
                let result = try p.vault(["rename"] + at + ["--to-service", target.service])
                logged(m, "rename \(key) → \(target) (its secret \(get.stdoutText))", result)
                try judgeItemChange(m, "rename \(key) to \(target)", result)
                if result.status == 0 { record(m, removes: key, sets: (target, get.stdoutText)) }
            } else if roll < 88 {
                try moveToAnotherGroup(m)
            } else {
                // Resolve one of the conflicts this clone holds, either way.
                let listed = try p.vault(["conflicts", "--json"])
                let keys = Self.keys(listed)
                guard listed.status == 0, !keys.isEmpty else {
                    logged(m, "conflicts --json (to resolve one)", listed)
                    if listed.status != 0 { try judgeItemChange(m, "conflicts --json", listed) }
                    return
                }
                let chosen = keys[pick(keys.count)]
                let side = chance(50) ? "--ours" : "--theirs"
                let shown = try shownSecrets(p, chosen)
                let result = try p.vault(["resolve", "-s", chosen.service, "-a", chosen.account, "--group", chosen.group, side, "--json"])
                logged(m, "resolve \(chosen) \(side)", result)
                try judgeItemChange(m, "resolve \(chosen) \(side)", result)
                guard result.status == 0 else { return }
                // The version taken keeps its own name and group (the other side may have renamed or moved the item).
                let settled = (try? JSONSerialization.jsonObject(with: Data(result.stdoutText.utf8))) as? [String: Any]
                let kept = Key(group: settled?["group"] as? String ?? chosen.group, service: settled?["service"] as? String ?? chosen.service,
                               account: settled?["account"] as? String ?? chosen.account)
                // What it settled on, read back: a secret, or the item gone.
                let after = try p.vault(["get", "-s", kept.service, "-a", kept.account, "--group", kept.group])
                logged(m, "get \(kept) after resolving", after)
                if after.status == 0 {
                    record(m, removes: chosen, sets: (kept, after.stdoutText), dropped: shown.subtracting([after.stdoutText]))
                } else if after.status == 44 {
                    record(m, removes: chosen, sets: nil, dropped: shown)
                } else {
                    problem("\(m.name): get \(chosen) after resolve exited \(after.status): \(after.stderr)")
                }
                count("resolves")
            }
        }

        /// The secrets the clone shows under a name: the current one and every version its conflicts keep.
        func shownSecrets(_ p: Person, _ key: Key) throws -> Set<String> {
            let at = ["-s", key.service, "-a", key.account, "--group", key.group]
            var shown: Set<String> = []
            let get = try p.vault(["get"] + at)
            if get.status == 0 { shown.insert(get.stdoutText) } else if get.status != 44 { return shown }
            for number in 1...20 {
                let version = try p.vault(["get"] + at + ["--conflict", String(number)])
                if version.status == 0 { shown.insert(version.stdoutText); continue }
                // 44 for a conflict that records a deletion; stop at "no conflict N" or "in no conflict".
                if version.status != 44 || version.stderr.contains("there is no conflict") || version.stderr.contains("is in no conflict") { break }
            }
            return shown
        }

        /// An owner machine removes a member it lists, or adds one it does not list (back).
        func memberChange(_ owner: Member) throws {
            let candidates = members.filter { $0.role != .owner }
            let target = candidates[pick(candidates.count)]
            let listed = try owner.person.vault(["member", "list", "--json"])
            guard listed.status == 0 else {
                problem("\(owner.name): member list exited \(listed.status): \(listed.stderr)")
                return
            }
            let names = ((try? JSONSerialization.jsonObject(with: Data(listed.stdout))) as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            let result: RunResult
            if names.contains(target.name) {
                result = try owner.person.vault(["member", "remove", target.name, "--yes", "--kdf-cost", "testing"])
                logged(owner, "member remove \(target.name)", result)
                if result.status == 0 {
                    target.out = true
                    target.addedBack = false
                    target.removedAtStep = step
                    target.removalPublishedAtStep = nil
                    count("member removals")
                }
            } else {
                // An add-back re-keys (the whole vault for a full member): the test's scrypt cost for the keyslot it re-makes.
                result = try owner.person.vault(["member", "add", target.name, target.recipient!, "--kdf-cost", "testing"] + target.scope)
                logged(owner, "member add \(target.name)", result)
                if result.status == 0 {
                    target.addedBack = true
                    count("member adds")
                }
            }
            let merging = try mergeInProgress(owner)
            if result.status != 0 && !(result.status == 2 && merging) {
                problem("\(owner.name): member change of \(target.name) exited \(result.status): \(result.stderr)")
            }
        }

        /// A full member's `member add`: the owner's alone (30), or 2 while git holds a merge.
        func memberAddByAMember(_ m: Member) throws {
            let result = try m.person.vault(["member", "add", "zed", zedRecipient])
            logged(m, "member add zed (a full member's)", result)
            count("member adds by a full member")
            let merging = try mergeInProgress(m)
            let removed = result.status == 51 ? try removedInOwnFile(m) : false
            if !(result.status == 30 || (merging && result.status == 2) || (removed && result.status == 51)) {
                problem("\(m.name): a full member's member add exited \(result.status), want 30: \(result.stderr)")
            }
        }

        /// ci-runner pulls and lists group ci: it reads exactly when the file it pulled lists it.
        func ciReads(_ m: Member) throws {
            let pull = try m.person.git(["pull", "-q", "--no-rebase", "--no-edit"])
            logged(m, "git pull", pull)
            if pull.status != 0 { problem("ci-runner: git pull exited \(pull.status): \(pull.stderr)") }
            let head = try head(m)
            let member = try audit(head).roster[m.name] != nil
            let list = try m.person.vault(["list", "--group", "ci", "--json"])
            logged(m, "list --group ci", list)
            count("ci reads")
            if member && list.status != 0 {
                problem("ci-runner, in the roster of \(head), cannot list group ci: \(list.status) \(list.stderr)")
            } else if !member && list.status == 0 {
                problem("ci-runner, not in the roster of \(head), listed group ci: \(list.stdoutText)")
            }
        }

        /// A clone for a person the remote's roster holds who has none yet (erin, once added).
        func cloneIfMember(_ m: Member) throws -> Bool {
            if m.hasClone { return true }
            guard try audit(try remoteHead()).roster[m.name] != nil else { return false }
            try m.person.clone(team.remote)
            m.person.env["VAULT_TRUST"] = team.trust
            Sync.expectStatus(try m.person.vault(["sync", "--setup"]), 0, "\(m.name): vault sync --setup")
            m.hasClone = true
            m.knows = remoteKnows
            note("  \(m.name): cloned the remote")
            return true
        }

        func turn(_ m: Member) throws {
            step += 1
            switch m.role {
            case .owner:
                let roll = pick(100)
                note("step \(step): \(m.name)")
                if roll < 45 { try itemChange(m) }
                else if roll < 57 { try memberChange(m) }
                else if roll < 63 { try groupChange(m) }
                else { try sync(m, rebase: chance(50)) }
            case .writer:
                let roll = pick(100)
                note("step \(step): \(m.name)\(m.out ? " (removed)" : "")")
                if roll < 55 { try itemChange(m) }
                else if roll < 60 { try memberAddByAMember(m) }
                else { try sync(m, rebase: chance(50)) }
            case .reader:
                note("step \(step): \(m.name)\(m.out ? " (removed)" : "")")
                guard chance(65), try cloneIfMember(m) else { return }
                try sync(m, rebase: chance(40))
            case .ci:
                note("step \(step): \(m.name)")
                if chance(60) { try ciReads(m) }
            }
        }

        // MARK: the end

        /// Every item the clone lists (and every item in conflict): its secret and the versions its conflicts keep.
        func view(_ p: Person) throws -> [Key: Observed] {
            let list = try p.vault(["list", "--json"])
            let conflicts = try p.vault(["conflicts", "--json"])
            if list.status != 0 || conflicts.status != 0 {
                problem("\(p.name): list \(list.status) \(list.stderr); conflicts --json \(conflicts.status) \(conflicts.stderr)")
            }
            let inConflict = Set(Self.keys(conflicts))
            var view: [Key: Observed] = [:]
            for key in Set(Self.keys(list)).union(inConflict).sorted() {
                let at = ["-s", key.service, "-a", key.account, "--group", key.group]
                let get = try p.vault(["get"] + at)
                let theirs = try p.vault(["get"] + at + ["--theirs"])
                var observed = Observed(getStatus: get.status, current: get.status == 0 ? get.stdoutText : nil, conflicted: inConflict.contains(key),
                                        theirsStatus: theirs.status, theirs: theirs.status == 0 ? theirs.stdoutText : nil)
                for number in 1...20 where observed.conflicted {
                    let version = try p.vault(["get"] + at + ["--conflict", String(number)])
                    if version.status == 44, version.stderr.contains("there is no conflict") { break }
                    observed.versions.append(version.status == 0 ? version.stdoutText : nil)
                }
                view[key] = observed
            }
            return view
        }

        func roster(_ p: Person) throws -> [String: String] {
            let result = try p.vault(["member", "list", "--json"])
            if result.status != 0 { problem("\(p.name): member list exited \(result.status): \(result.stderr)") }
            var roster: [String: String] = [:]
            for object in (try? JSONSerialization.jsonObject(with: Data(result.stdout))) as? [[String: Any]] ?? [] {
                if let name = object["name"] as? String {
                    roster[name] = "\(object["recipient"] ?? "?") \(object["scope"] ?? "?") \(object["read_only"] ?? "?") \(object["added_at"] ?? "?")"
                }
            }
            return roster
        }

        /// Two rounds of `vault sync` by everyone still a member. The owner's machines go first in the first
        /// round (in a random order), so that the roster is settled when the others sync: a member the owner's
        /// join adds back then syncs in the first round, and the second round only fast-forwards.
        func finalRounds() throws {
            for round in 1...2 {
                note("final round \(round)")
                let syncing = members.filter { $0.role != .ci }
                let order = round == 1 ? shuffled(syncing.filter { $0.role == .owner }) + shuffled(syncing.filter { $0.role != .owner }) : shuffled(syncing)
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
                    try sync(m, rebase: false)
                }
            }
        }

        func check() throws {
            let head = try remoteHead()
            let seen = try audit(head)
            let current = members.filter { $0.role == .owner || ($0.role != .ci && $0.hasClone && seen.roster[$0.name] != nil) }
            note("at the end: remote \(head), roster \(seen.roster.keys.sorted()); compared: \(current.map(\.name))")
            for m in current {
                let at = try self.head(m)
                if at != head { problem("\(m.name): HEAD \(at) after the final rounds; the remote is at \(head)") }
            }
            // The same items and the same roster in every clone of the owner and of a full member.
            let reference = current[0]
            let views = try current.map { try view($0.person) }
            let rosters = try current.map { try roster($0.person) }
            for (index, m) in current.enumerated().dropFirst() {
                if views[index] != views[0] {
                    let keys = Set(views[index].keys).union(views[0].keys).sorted().filter { views[index][$0] != views[0][$0] }
                    problem("\(m.name)'s items differ from \(reference.name)'s: " + keys.map {
                        "\($0): \(m.name) \(views[index][$0].map(String.init(describing:)) ?? "absent"), \(reference.name) \(views[0][$0].map(String.init(describing:)) ?? "absent")"
                    }.joined(separator: "; "))
                }
                if rosters[index] != rosters[0] {
                    problem("\(m.name)'s roster differs from \(reference.name)'s: \(rosters[index]) vs \(rosters[0])")
                }
            }
            let final = views[0]
            note("final items: " + final.keys.sorted().map { "\($0)=\(final[$0]!)" }.joined(separator: "; "))
            for (key, observed) in final {
                if observed.conflicted == false && observed.theirsStatus != 44 {
                    problem("\(key): in no conflict, yet get --theirs exited \(observed.theirsStatus)")
                }
            }

            // ci-runner reads group ci as the owner does, or, removed, nothing.
            let ci = members.first { $0.role == .ci }!
            let pull = try ci.person.git(["pull", "-q", "--no-rebase", "--no-edit"])
            if pull.status != 0 { problem("ci-runner: git pull exited \(pull.status): \(pull.stderr)") }
            for key in final.keys.sorted() where key.group == "ci" {
                let get = try ci.person.vault(["get", "-s", key.service, "-a", key.account, "--group", "ci"])
                if seen.roster[ci.name] != nil {
                    if get.status != final[key]!.getStatus || (get.status == 0 && get.stdoutText != final[key]!.current) {
                        problem("ci-runner reads \(key) as \(get.status) \(String(reflecting: get.stdoutText)); the owner: \(final[key]!)")
                    }
                } else if get.status == 0 {
                    problem("ci-runner, removed, read \(key): \(String(reflecting: get.stdoutText))")
                }
            }
            // Nobody the roster lacks reads anything of the final file.
            try probe.sandbox.write("remote.vault", try remoteFile(head))
            for m in members where m.role != .owner && m.recipient != nil && seen.roster[m.name] == nil {
                for key in final.keys.sorted() {
                    let get = try probe.vault(["get", "-s", key.service, "-a", key.account, "--group", key.group],
                                              adding: ["VAULT_IDENTITY": m.person.env["VAULT_IDENTITY"]!, "VAULT_PATH": probe.sandbox.path("remote.vault")])
                    count("final probes of removed identities")
                    if get.status == 0 { problem("\(m.name), removed, read \(key) of the final file: \(String(reflecting: get.stdoutText))") }
                }
            }

            try checkEveryCommit(roster: seen.roster)

            // No acknowledged write lost: the writes the final file holds, name by name.
            let visible = final.values.reduce(into: Set<String>()) { $0.formUnion($1.visible) }
            let inFile = writes.filter { remoteKnows.contains($0.id) }
            let names = Set(inFile.flatMap { [$0.removes, $0.sets?.key].compactMap { $0 } }).union(final.keys)
            for key in names.sorted() {
                let touching = inFile.filter { $0.touches(key) }
                let latest = touching.filter { w in !touching.contains { $0.id != w.id && $0.knows.contains(w.id) } }
                let describe = "\(key): the latest writes: \(latest.map(\.description)); final: \(final[key].map(String.init(describing:)) ?? "absent")"
                for w in latest where acknowledged.contains(w.id) {
                    guard let set = w.sets, set.key == key, !visible.contains(set.value) else { continue }
                    // A delete or resolve that had this secret before it (under any name: a conflict keeps a
                    // concurrent rename's version under the other side's name) dropped it knowingly.
                    if let by = inFile.first(where: { $0.id != w.id && $0.dropped.contains(set.value) }) {
                        note("\(set.value) (w\(w.id)) is gone: \(by) dropped it")
                        continue
                    }
                    problem("lost: \(set.value), acknowledged, replaced by no later write, is nowhere in the final file. \(describe)")
                }
                if let observed = final[key], !observed.conflicted {
                    let allowed = Set(latest.compactMap { $0.sets?.key == key ? $0.sets?.value : nil })
                    if observed.current == nil || !allowed.contains(observed.current!) {
                        problem("\(key) is in no conflict, but its secret is not one a latest write put there. \(describe)")
                    }
                }
                if latest.count == 1, let w = latest.first, acknowledged.contains(w.id), w.sets?.key != key,
                   let observed = final[key], !observed.conflicted {
                    problem("\(key): deleted (or renamed away) by an acknowledged write no other replaced, yet it is there, in no conflict. \(describe)")
                }
            }
            print("TeamConvergenceTests: seed \(seed): \(step) steps, \(writes.count) writes (\(acknowledged.count) acknowledged), "
                  + counts.keys.sorted().map { "\($0) \(counts[$0]!)" }.joined(separator: ", ")
                  + "; final roster \(seen.roster.keys.sorted()); \(final.count) items, \(final.values.filter(\.conflicted).count) in conflict")
        }
    }

    // MARK: - Setup

    static func makeRun(_ random: SeededGenerator) throws -> Run {
        let team = try Sync.makeTeam()
        let pass = Array("alice's passphrase".utf8)
        func ownerMachine(_ name: String) throws -> Person {
            let machine = try Person(name)
            try machine.sandbox.write("pass", pass)
            machine.env["VAULT_PASSPHRASE_FILE"] = machine.sandbox.path("pass")
            return machine
        }
        let desk = try ownerMachine("alice-desk")
        let auditor = try ownerMachine("auditor")
        let probe = try Person("probe")
        probe.env["VAULT_TRUST"] = team.trust
        let carol = try Person("carol")
        let dave = try Person("dave")
        let erin = try Person("erin")
        let zed = try Person("zed")
        let zedRecipient = try zed.makeIdentity()
        let carolRecipient = try carol.makeIdentity()
        let daveRecipient = try dave.makeIdentity()
        let erinRecipient = try erin.makeIdentity()
        let alice = team.alice
        try alice.mustVault(["member", "add", "carol", carolRecipient])
        try alice.mustVault(["member", "add", "dave", daveRecipient])
        var initial: [(Key, String)] = Sync.initialItems.map { (Key(group: $0.2 ?? "default", service: $0.0, account: $0.1), $0.3) }
        for (group, service) in [("default", "pool0"), ("default", "pool1"), ("default", "pool2"), ("ci", "ci0"), ("ci", "ci1")] {
            let key = Key(group: group, service: service, account: Run.account)
            try alice.mustVault(["add", "-s", service, "-a", key.account, "--group", group, "-w", "initial-\(service)"])
            initial.append((key, "initial-\(service)"))
        }
        try Sync.sync(alice)
        for person in [desk, carol, dave] {
            try person.clone(team.remote)
            if person !== desk { person.env["VAULT_TRUST"] = team.trust }
        }
        // The merge driver everywhere but in carol's clone (there git's stop is finished by vault sync from the stages).
        for person in [desk, team.bob, dave] {
            try #require(try person.vault(["sync", "--setup"]).status == 0, "\(person.name): vault sync --setup")
        }
        for person in [team.bob, team.ci] { try person.mustGit(["pull", "-q", "--no-rebase", "--no-edit"]) }
        for person in [alice, desk, team.bob, carol, dave] {
            person.env["GIT_EDITOR"] = "true"
            try #require(try person.head() == team.remoteHead(), "\(person.name) is not at the remote's head after setup")
        }

        let run = Run(random: random, team: team, auditor: auditor, probe: probe, zedRecipient: zedRecipient)
        let bobRecipient = try #require(try run.roster(alice)["bob"]?.split(separator: " ").first.map(String.init))
        let people: [Member] = [
            Member(alice, .owner, hasClone: true), Member(desk, .owner, hasClone: true),
            Member(team.bob, .writer, hasClone: true), Member(carol, .writer, hasClone: true),
            Member(dave, .reader, hasClone: true), Member(erin, .reader, hasClone: false),
            Member(team.ci, .ci, hasClone: true, scope: ["--group", "ci", "--read-only"]),
        ]
        for (m, recipient) in zip(people, [nil, nil, bobRecipient, carolRecipient, daveRecipient, erinRecipient, team.ciRecipient]) {
            m.recipient = recipient
        }
        people[5].out = true  // erin: not a member until an owner machine adds her
        run.members = people
        for (key, value) in initial {
            let write = Write(id: run.writes.count, author: "setup", step: 0, removes: nil, sets: (key: key, value: value), knows: [], eligible: true)
            run.writes.append(write)
            run.acknowledged.insert(write.id)
        }
        run.remoteKnows = Set(run.writes.map(\.id))
        for m in people where m.hasClone { m.knows = run.remoteKnows }
        return run
    }

    // MARK: - The property

    @Test func randomTeamWorkConverges() throws {
        let random = SeededGenerator(test: "TeamConvergenceTests.randomTeamWorkConverges")
        let rounds = ProcessInfo.processInfo.environment["VAULT_CONVERGENCE_ROUNDS"].flatMap { Int($0) } ?? 12
        let started = Date()
        let run = try Self.makeRun(random)
        for round in 1...max(rounds, 1) {
            run.note("round \(round)")
            for m in run.shuffled(run.members) {
                try run.turn(m)
                if run.problems.count > 20 { break }
            }
            if run.problems.count > 20 { break }
        }
        try run.finalRounds()
        try run.check()
        print("TeamConvergenceTests: \(rounds) rounds in \(Int(Date().timeIntervalSince(started))) s")
        if !run.problems.isEmpty || ProcessInfo.processInfo.environment["VAULT_CONVERGENCE_LOG"] == "1" {
            let text = "seed \(run.seed) (VAULT_TEST_SEED=\(run.seed) repeats it), \(rounds) rounds; what happened:\n" + run.log.joined(separator: "\n")
            print(text)
            guard !run.problems.isEmpty else { return }
            Issue.record("\(run.problems.count) problems:\n\(run.problems.joined(separator: "\n"))\n\(text)")
        }
    }
}
