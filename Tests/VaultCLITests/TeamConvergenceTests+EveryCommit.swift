import Foundation
import Testing

/// The removal invariant over every commit, not only the heads: every commit of the remote and of
/// every clone (`git rev-list --all`) is opened with the identity of each member out at the end,
/// through the independent reader (Tests/FormatReader/vault_v3.py, by
/// Support/removed-member-probe.py) with the keys of every slot it had in any of those commits, and
/// through the CLI with a state directory of its own. Nothing first written after its removal reached
/// the remote (before, teammates rightly wrote under the keys it held) may open —
/// except in a clone's own commits still carrying its slot: a teammate that had not yet learned of
/// the removal sealed under the keys it had, which fetch-first sync never pushes — and so in those a
/// plain `git push` sent to the remote (docs/TEAMS.md, "does not hold").
extension TeamConvergenceTests.Run {
    static let probeScript = Sandbox.packageRoot + "/Tests/VaultCLITests/Support/removed-member-probe.py"

    /// Every distinct vault file of every commit: the remote's first, then each clone's; the path of
    /// a copy in the probe's sandbox, and whether the remote has it.
    func everyCommitsFile() throws -> [(path: String, onRemote: Bool)] {
        var seen: [String: Int] = [:]
        var copies: [(path: String, onRemote: Bool)] = []
        try FileManager.default.createDirectory(atPath: probe.sandbox.path("commits"), withIntermediateDirectories: true)
        let gits: [(dir: [String], env: [String: String], remote: Bool)] =
            [(["--git-dir", team.remote], auditor.env, true)]
            + members.filter(\.hasClone).map { (["-C", $0.person.project], $0.person.env, false) }
        for git in gits {
            let commits = try auditor.sandbox.run("/usr/bin/git", git.dir + ["rev-list", "--all"], environment: git.env).stdoutText.split(
                separator: "\n")
            for commit in commits {
                let blob = try auditor.sandbox.run(
                    "/usr/bin/git", git.dir + ["rev-parse", "-q", "--verify", "\(commit):team.vault"], environment: git.env)
                let id = blob.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
                guard blob.status == 0, !id.isEmpty else { continue }
                if let known = seen[id] {
                    if git.remote { copies[known].onRemote = true }
                    continue
                }
                let bytes = try auditor.sandbox.run("/usr/bin/git", git.dir + ["cat-file", "blob", id], environment: git.env)
                let path = probe.sandbox.path("commits/\(id).vault")
                try probe.sandbox.write("commits/\(id).vault", bytes.stdout, mode: 0o644)
                seen[id] = copies.count
                copies.append((path, git.remote))
            }
        }
        return copies
    }

    /// The invariant for each member out at the end (removed, not added back), over `everyCommitsFile()`.
    func checkEveryCommit(roster: [String: String]) throws {
        let out = members.filter { $0.role != .owner && $0.recipient != nil && roster[$0.name] == nil && $0.removedAtStep != nil }
        guard !out.isEmpty else { return }
        let copies = try everyCommitsFile()
        counts["commit files probed", default: 0] += copies.count
        for m in out {
            guard let removed = m.removalPublishedAtStep ?? m.removedAtStep, let identity = m.person.env["VAULT_IDENTITY"] else { continue }
            // Secrets first written after the removal reached the remote (a rename carries an older one along).
            let before = Set(writes.filter { $0.step <= removed }.compactMap { $0.sets?.value })
            let after = Dictionary(
                writes.filter { $0.step > removed }.compactMap { w in
                    w.sets.flatMap {
                        before.contains($0.value) || $0.value.hasPrefix("initial-")
                            ? nil : (TeamConvergenceTests.hex($0.value), ($0.key, $0.value))
                    }
                }
            ) { a, _ in a }
            guard !after.isEmpty else { continue }
            try probe.sandbox.write("watched-\(m.name)", Array(after.keys.sorted().joined(separator: "\n").utf8), mode: 0o644)
            let result = try probe.sandbox.run(
                "/usr/bin/python3", [Self.probeScript, identity, probe.sandbox.path("watched-\(m.name)")] + copies.map(\.path))
            guard result.status == 0, let object = (try? JSONSerialization.jsonObject(with: Data(result.stdout))) as? [String: Any] else {
                problem("removed-member-probe.py for \(m.name) exited \(result.status): \(result.stderr)")
                continue
            }
            let slotted = Set(object["slotted"] as? [String] ?? [])
            for (path, damage) in object["damaged"] as? [String: String] ?? [:] { problem("the reader finds \(path) damaged: \(damage)") }
            note("  every commit: \(m.name) (removed at step \(removed)) had a slot in \(slotted.count) of \(copies.count) files")
            for copy in copies {
                let opened = (object["opened"] as? [String: [String]])?[copy.path] ?? []
                let ownSlot = slotted.contains(copy.path)
                let handPushed = handPushedFiles.contains(URL(fileURLWithPath: copy.path).deletingPathExtension().lastPathComponent)
                if !opened.isEmpty, (copy.onRemote && !handPushed) || !ownSlot {
                    problem(
                        "\(m.name), removed at step \(removed), opens with its old slots' keys \(opened.compactMap { after[$0]?.1 }) in \(copy.path)\(copy.onRemote ? " (on the remote)" : "")"
                    )
                }
                guard ownSlot, copy.onRemote, !handPushed else { continue }
                // The CLI, with a state directory of its own, on a remote commit that still has its slot.
                for (key, value) in after.values.prefix(3) {
                    let get = try probe.vault(
                        ["get", "-s", key.service, "-a", key.account, "--group", key.group, "--accept-rollback"],
                        adding: ["VAULT_IDENTITY": identity, "VAULT_PATH": copy.path])
                    count("every-commit CLI probes")
                    if get.status == 0 && get.stdoutText == value {
                        problem("\(m.name), removed at step \(removed), reads \(key) = \(value) with the CLI in the remote's \(copy.path)")
                    }
                }
            }
        }
    }
}

extension TeamConvergenceTests {
    static func hex(_ text: String) -> String { text.utf8.map { String(format: "%02x", $0) }.joined() }
}
