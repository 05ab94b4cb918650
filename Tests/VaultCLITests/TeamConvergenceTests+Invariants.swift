import Foundation
import Testing
import VaultTestSupport

/// What must hold at the end of a convergence run (the list in `TeamConvergenceTests`' doc comment):
/// every clone at the remote's commit with the same items and roster, ci-runner reading as the owner,
/// nobody the roster lacks opening anything, and no acknowledged write lost without a conflict.
extension TeamConvergenceTests.Run {
    /// Every item the clone lists (and every item in conflict): its secret and the versions its conflicts keep.
    /// `adding`: variables for every command (another file, a state directory of its own).
    func view(_ p: Person, adding extra: [String: String] = [:]) throws -> [Key: Observed] {
        let list = try p.vault(["list", "--json"], adding: extra)
        let conflicts = try p.vault(["conflicts", "--json"], adding: extra)
        if list.status != 0 || conflicts.status != 0 {
            problem("\(p.name): list \(list.status) \(list.stderr); conflicts --json \(conflicts.status) \(conflicts.stderr)")
        }
        let inConflict = Set(Self.keys(conflicts))
        var view: [Key: Observed] = [:]
        for key in Set(Self.keys(list)).union(inConflict).sorted() {
            let at = ["-s", key.service, "-a", key.account, "--group", key.group]
            let get = try p.vault(["get"] + at, adding: extra)
            let theirs = try p.vault(["get"] + at + ["--theirs"], adding: extra)
            var observed = Observed(
                getStatus: get.status, current: get.status == 0 ? get.stdoutText : nil, conflicted: inConflict.contains(key),
                theirsStatus: theirs.status, theirs: theirs.status == 0 ? theirs.stdoutText : nil)
            for number in 1...20 where observed.conflicted {
                let version = try p.vault(["get"] + at + ["--conflict", String(number)], adding: extra)
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
                roster[name] =
                    "\(object["recipient"] ?? "?") \(object["scope"] ?? "?") \(object["read_only"] ?? "?") \(object["added_at"] ?? "?")"
            }
        }
        return roster
    }

    func check() throws {
        let head = try remoteHead()
        let seen = try audit(head)
        let current = members.filter {
            $0.role == .owner || ($0.role != .ci && $0.role != .scoped && $0.hasClone && seen.roster[$0.name] != nil)
        }
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
                problem(
                    "\(m.name)'s items differ from \(reference.name)'s: "
                        + keys.map {
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
        // The scoped writer, still a member, at the remote's commit, reads group ci as the owner does.
        for m in members where m.role == .scoped && m.hasClone && seen.roster[m.name] != nil {
            let at = try self.head(m)
            if at != head { problem("\(m.name): HEAD \(at) after the final rounds; the remote is at \(head)") }
            for key in final.keys.sorted() where key.group == "ci" {
                let get = try m.person.vault(["get", "-s", key.service, "-a", key.account, "--group", "ci"])
                if get.status != final[key]!.getStatus || (get.status == 0 && get.stdoutText != final[key]!.current) {
                    problem("\(m.name) reads \(key) as \(get.status) \(String(reflecting: get.stdoutText)); the owner: \(final[key]!)")
                }
            }
        }
        // Nobody the roster lacks reads anything of the final file.
        try probe.sandbox.write("remote.vault", try remoteFile(head))
        for m in members where m.role != .owner && m.recipient != nil && seen.roster[m.name] == nil {
            for key in final.keys.sorted() {
                let get = try probe.vault(
                    ["get", "-s", key.service, "-a", key.account, "--group", key.group],
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
            let describe =
                "\(key): the latest writes: \(latest.map(\.description)); final: \(final[key].map(String.init(describing:)) ?? "absent")"
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
                let observed = final[key], !observed.conflicted
            {
                problem(
                    "\(key): deleted (or renamed away) by an acknowledged write no other replaced, yet it is there, in no conflict. \(describe)"
                )
            }
        }
        print(
            "TeamConvergenceTests: seed \(seed): \(step) steps, \(writes.count) writes (\(acknowledged.count) acknowledged), "
                + counts.keys.sorted().map { "\($0) \(counts[$0]!)" }.joined(separator: ", ")
                + "; final roster \(seen.roster.keys.sorted()); \(final.count) items, \(final.values.filter(\.conflicted).count) in conflict"
        )
    }
}
