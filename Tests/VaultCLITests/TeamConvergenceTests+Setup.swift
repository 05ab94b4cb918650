import Foundation
import Testing
import VaultTestSupport

/// The team of a convergence run, set up with the harness of `TeamSyncTests`: the owner's two
/// machines, the members (frank a read-write member of group ci) and their clones (the merge driver
/// in all but carol's), the initial items.
extension TeamConvergenceTests {
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
        let frank = try Person("frank")
        let frankRecipient = try frank.makeIdentity()
        let alice = team.alice
        try alice.mustVault(["member", "add", "carol", carolRecipient])
        try alice.mustVault(["member", "add", "dave", daveRecipient])
        var initial: [(Key, String)] = Sync.initialItems.map { (Key(group: $0.2 ?? "default", service: $0.0, account: $0.1), $0.3) }
        for (group, service) in [("default", "pool0"), ("default", "pool1"), ("default", "pool2"), ("ci", "ci0"), ("ci", "ci1")] {
            let key = Key(group: group, service: service, account: Run.account)
            try alice.mustVault(["add", "-s", service, "-a", key.account, "--group", group, "-w", "initial-\(service)"])
            initial.append((key, "initial-\(service)"))
        }
        try alice.mustVault(["member", "add", "frank", frankRecipient, "--group", "ci"])
        try Sync.sync(alice)
        for person in [desk, carol, dave, frank] {
            try person.clone(team.remote)
            if person !== desk { person.env["VAULT_TRUST"] = team.trust }
        }
        // The merge driver everywhere but in carol's clone (there git's stop is finished by vault sync from the stages).
        for person in [desk, team.bob, dave, frank] {
            try #require(try person.vault(["sync", "--setup"]).status == 0, "\(person.name): vault sync --setup")
        }
        for person in [team.bob, team.ci] { try person.mustGit(["pull", "-q", "--no-rebase", "--no-edit"]) }
        for person in [alice, desk, team.bob, carol, dave, frank] {
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
            Member(frank, .scoped, hasClone: true, scope: ["--group", "ci"])
        ]
        for (m, recipient) in zip(
            people, [nil, nil, bobRecipient, carolRecipient, daveRecipient, erinRecipient, team.ciRecipient, frankRecipient])
        {
            m.recipient = recipient
        }
        people[5].out = true  // erin: not a member until an owner machine adds her
        run.members = people
        for (key, value) in initial {
            let write = Write(
                id: run.writes.count, author: "setup", step: 0, removes: nil, sets: (key: key, value: value), knows: [], eligible: true)
            run.writes.append(write)
            run.acknowledged.insert(write.id)
        }
        run.remoteKnows = Set(run.writes.map(\.id))
        for m in people where m.hasClone { m.knows = run.remoteKnows }
        return run
    }

}
