import Foundation
import Testing
import VaultTestSupport

/// The remote's file as the owner's passphrase reads it, on a machine of its own that only reads
/// (the auditor), and the probe of it with the identity of each person its roster lacks.
extension TeamConvergenceTests.Run {
    func remoteFile(_ head: String) throws -> [UInt8] {
        let show = try auditor.sandbox.run(
            "/usr/bin/git", ["--git-dir", team.remote, "show", "\(head):team.vault"], environment: auditor.env)
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
            problem(
                "the owner cannot read the remote's file at \(head): member list \(roster.status) \(roster.stderr); list \(list.status) \(list.stderr)"
            )
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
            if let service = object["service"] as? String, let account = object["account"] as? String,
                let group = object["group"] as? String
            {
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
            let after =
                m.removedAtStep.map { removed in
                    seen.items.filter { key in
                        self.writes.contains { $0.sets?.key == key && $0.step > removed && self.remoteKnows.contains($0.id) }
                    }
                } ?? []
            let candidates = after.isEmpty ? seen.items : after
            let key = candidates[pick(candidates.count)]
            let result = try probe.vault(
                ["get", "-s", key.service, "-a", key.account, "--group", key.group],
                adding: ["VAULT_IDENTITY": m.person.env["VAULT_IDENTITY"]!, "VAULT_PATH": probe.sandbox.path("remote.vault")])
            note(
                "  probe: \(m.name)'s identity, removed, get \(key) of the remote's \(head.prefix(8))\(after.isEmpty ? "" : " (written after the removal)") → \(result.status)"
            )
            count("probes of removed identities")
            if result.status == 0 {
                problem(
                    "\(m.name), not in the roster of the remote's file at \(head), read \(key) with its identity: \(String(reflecting: result.stdoutText))"
                )
            }
        }
    }
}
