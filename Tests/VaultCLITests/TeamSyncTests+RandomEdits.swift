import Foundation
import Testing
import VaultTestSupport

/// Random edits and syncs against a model of the contract: nothing acknowledged is lost.
extension TeamSyncTests {
    // MARK: - 8. Random edits and syncs lose nothing acknowledged

    /// What the contract says an item of the pool holds, name by name. vault matches records by item id
    /// (kept through updates; a delete and an add make a new one), so a value carries the id of the add
    /// that made it; -1 when the model cannot know it (written over a conflict).
    enum ModelState: Equatable, CustomStringConvertible {
        case absent
        case value(String, id: Int)
        case conflict(Set<String>)  // a conflict: these values must stay readable (get or get --theirs)

        var values: Set<String> {
            switch self {
            case .absent: []
            case .value(let value, _): [value]
            case .conflict(let values): values
            }
        }
        var id: Int? {
            if case .value(_, let id) = self, id >= 0 { return id }
            return nil
        }
        var description: String {
            switch self {
            case .absent: "absent"
            case .value(let value, let id): "\(value)#\(id)"
            case .conflict(let values): "conflict\(values.sorted())"
            }
        }
    }

    struct ModelItem: CustomStringConvertible {
        var state = ModelState.absent
        /// Written over a conflict: the contract does not say whether a change settles it, so vault may
        /// show either the value alone or the value in a conflict still.
        var uncertain = false
        var description: String { "\(state)\(uncertain ? "?" : "")" }
    }

    /// The contract's merge of one item against the merge base: a change on one side is taken; the same
    /// item changed on both sides (or changed on one, deleted on the other, or added on both under one
    /// name) is a conflict that keeps both. Items are matched by id, as vault does: an item deleted on
    /// both sides and added again on one is that new item, no conflict.
    static func merge(base: ModelItem, ours: ModelItem, theirs: ModelItem) -> ModelItem {
        if ours.state == theirs.state { return ModelItem(state: ours.state, uncertain: ours.uncertain || theirs.uncertain) }
        if ours.state == base.state { return theirs }
        if theirs.state == base.state { return ours }
        // What the base held was seen and replaced by the side that changed it: only newer values must stay.
        let newer = ours.state.values.union(theirs.state.values).subtracting(base.state.values)
        // Nothing newer than the base (say, a conflicted item deleted on one side, one of its versions dropped on
        // the other): no value is at stake, and whether that is still a conflict is vault's call.
        let conflict = newer.isEmpty ? ModelItem(state: .absent, uncertain: true) : ModelItem(state: .conflict(newer))
        // A side the model is unsure of (written over a conflict, or a conflict deleted): the newer values
        // must stay, but whether they stay in a conflict is vault's call (seed 4787439301121892010: bob
        // deleted a conflicted item, carol deleted its record and added a new one; vault, matching by
        // id, keeps carol's alone).
        if ours.uncertain || theirs.uncertain { return ModelItem(state: conflict.state, uncertain: true) }
        let known = { (state: ModelState) in state == .absent || state.id != nil }
        guard known(base.state), known(ours.state), known(theirs.state) else { return conflict }
        // Record by record: the base's record on each side, then records added on one side.
        var live: [ModelState] = []
        if let baseID = base.state.id {
            let mine = ours.state.id == baseID ? ours.state : .absent
            let other = theirs.state.id == baseID ? theirs.state : .absent
            if mine == other {
                if mine != .absent { live.append(mine) }
            } else if mine == base.state {
                if other != .absent { live.append(other) }
            } else if other == base.state {
                if mine != .absent { live.append(mine) }
            } else {
                return conflict
            }
        }
        for side in [ours.state, theirs.state] where side.id != nil && side.id != base.state.id {
            live.append(side)
        }
        switch live.count {
        case 0: return ModelItem(state: .absent)
        case 1: return ModelItem(state: live[0])
        default: return conflict  // two records under one name
        }
    }

    struct Observed: Equatable, CustomStringConvertible {
        var conflicted: Bool
        var getStatus: Int32
        var getValue: String?
        var theirsStatus: Int32
        var theirsValue: String?
        /// What `get --conflict N` prints for N = 1, 2, … (nil where that conflict records a deletion).
        var conflictValues: [String?] = []
        var visible: Set<String> { Set(([getValue, theirsValue] + conflictValues).compactMap { $0 }) }
        var description: String {
            "conflicted \(conflicted), get \(getStatus) \(getValue ?? "-"), --theirs \(theirsStatus) \(theirsValue ?? "-"), --conflict \(conflictValues.map { $0 ?? "deleted" })"
        }
    }

    /// 30 rounds: a random person (alice or bob) adds, updates or deletes a random item of a pool of six,
    /// and syncs with probability 0.4; at the end both sync twice, alternating. A change is acknowledged
    /// when a `vault sync` of its author exits 0 after it. The oracle replays the contract on acknowledged
    /// states: each person's vault, the remote, and each person's merge base (the state of their last sync,
    /// which is git's merge base of their HEAD and the remote's); every sync merges item by item as
    /// `merge(base:ours:theirs:)` says. Two people changing one item between syncs is a conflict by design,
    /// either version may be "ours": every value the model keeps in a conflict must be readable with
    /// `get`, `get --theirs` or `get --conflict N`, and the item listed by `vault conflicts --json`. Items the model holds
    /// without a conflict must hold exactly that value (or be absent) and not be in conflict.
    @Test func randomEditsAndSyncsLoseNothingAcknowledged() throws {
        var random = SeededGenerator(test: "TeamSyncTests.randomEditsAndSyncsLoseNothingAcknowledged")
        let seed = random.seed
        let team = try Self.makeTeam()
        // A third writer, as the issue asks for three clones: carol, a full member with an identity of her own.
        let carol = try Person("carol")
        try team.alice.mustVault(["member", "add", "carol", try carol.makeIdentity()])
        try Self.sync(team.alice)
        try carol.clone(team.remote)
        carol.env["VAULT_TRUST"] = team.trust
        let people = [team.alice, team.bob, carol]
        let services = (0..<6).map { "pool\($0)" }
        let account = "acct"
        let empty = Dictionary(uniqueKeysWithValues: services.map { ($0, ModelItem()) })
        var local = [empty, empty, empty]  // each person's vault as the contract says
        var base = [empty, empty, empty]  // each person's state at their last sync: git's merge base when they sync next
        var remote = empty
        var log: [String] = []
        func context() -> String {
            "seed \(seed) (VAULT_TEST_SEED=\(seed) repeats it)\n" + log.joined(separator: "\n")
        }
        func inConflict(_ p: Int) throws -> Set<String> {
            Set(try Self.conflicts(people[p]).filter { $0.account == account && $0.group == "default" }.map(\.service))
        }
        func syncAndAcknowledge(_ p: Int) throws {
            let result = try people[p].vault(["sync"])
            #expect(result.status == 0, "\(people[p].name): vault sync exited \(result.status): \(result.stderr)\n\(context())")
            guard result.status == 0 else {
                log.append("  \(people[p].name): vault sync → \(result.status)")
                return
            }
            for service in services {
                local[p][service] = Self.merge(base: base[p][service]!, ours: local[p][service]!, theirs: remote[service]!)
            }
            remote = local[p]
            base[p] = local[p]
            log.append("  \(people[p].name): vault sync → 0; now " + services.map { "\($0)=\(local[p][$0]!)" }.joined(separator: " "))
            let listed = try inConflict(p)
            for service in services {
                let item = local[p][service]!
                if item.uncertain { continue }
                if case .conflict = item.state {
                    #expect(
                        listed.contains(service),
                        "\(people[p].name): \(service) should be in conflict after this sync (\(item))\n\(context())")
                } else {
                    #expect(
                        !listed.contains(service),
                        "\(people[p].name): \(service) in conflict after this sync, but the model holds \(item)\n\(context())")
                }
            }
        }

        for round in 0..<30 {
            let p = Int(random.next() % UInt64(people.count))
            let person = people[p]
            let service = services[Int(random.next() % UInt64(services.count))]
            let op = random.next() % 3
            let value = "r\(round)-\(person.name)"
            let arguments: [String]
            switch op {
            case 0: arguments = ["add", "-s", service, "-a", account, "-w", value]
            case 1: arguments = ["update", "-s", service, "-a", account, "-w", value]
            default: arguments = ["delete", "-s", service, "-a", account]
            }
            let before = local[p][service]!
            let result = try person.vault(arguments)
            log.append(
                "round \(round): \(person.name) \(arguments[0]) \(service)\(op < 2 ? " = " + value : "") → \(result.status) (was \(before))"
            )
            var overConflict = before.uncertain
            if case .conflict = before.state { overConflict = true }
            if !overConflict {
                let present = before.state != .absent
                let want: Int32 = op == 0 ? (present ? 45 : 0) : (present ? 0 : 44)
                #expect(
                    result.status == want,
                    "round \(round): \(person.name) \(arguments[0]) \(service) exited \(result.status), want \(want) (the item is \(before)): \(result.stderr)\n\(context())"
                )
            }
            if result.status == 0 {
                let state: ModelState
                switch op {
                case 0: state = .value(value, id: overConflict ? -1 : round)
                case 1: state = .value(value, id: overConflict ? -1 : before.state.id ?? -1)
                default: state = .absent
                }
                local[p][service] = ModelItem(state: state, uncertain: overConflict)
            }
            if random.next() % 10 < 4 { try syncAndAcknowledge(p) }
        }
        for p in [0, 1, 2, 0, 1, 2] { try syncAndAcknowledge(p) }

        let heads = try people.map { try $0.head() } + [team.remoteHead()]
        #expect(Set(heads).count == 1, "after the final syncs: \(heads)\n\(context())")
        var views: [[String: Observed]] = []
        for (p, person) in people.enumerated() {
            let listed = try inConflict(p)
            var view: [String: Observed] = [:]
            for service in services {
                let get = try Self.get(person, service, account)
                let theirs = try Self.get(person, service, account, theirs: true)
                var observed = Observed(
                    conflicted: listed.contains(service),
                    getStatus: get.status, getValue: get.status == 0 ? get.stdoutText : nil,
                    theirsStatus: theirs.status, theirsValue: theirs.status == 0 ? theirs.stdoutText : nil)
                // Every version a conflict keeps, by number, until there is no such conflict.
                for number in 1...20 where observed.conflicted {
                    let version = try person.vault(["get", "-s", service, "-a", account, "--conflict", String(number)])
                    if version.status == 44, version.stderr.contains("there is no conflict") { break }
                    observed.conflictValues.append(version.status == 0 ? version.stdoutText : nil)
                }
                view[service] = observed
            }
            views.append(view)
        }
        #expect(views[0] == views[1] && views[0] == views[2], "the clones differ after syncing: \(views)\n\(context())")
        print(
            "TeamSyncTests.randomEditsAndSyncsLoseNothingAcknowledged: seed \(seed): \(log.filter { $0.hasPrefix("round") && $0.contains("→ 0") }.count) changes, "
                + "\(log.filter { $0.contains("vault sync → 0") }.count) syncs; final "
                + services.map { "\($0)=\(remote[$0]!)" }.joined(separator: " "))

        for service in services {
            let seen = try #require(views[0][service])
            let item = remote[service]!
            let describe = "\(service): the model holds \(item), alice sees \(seen)\n\(context())"
            switch item.state {
            case .conflict(let required):
                #expect(item.uncertain || seen.conflicted, "should be in conflict; \(describe)")
                #expect(required.isSubset(of: seen.visible), "lost: \(required.subtracting(seen.visible).sorted()); \(describe)")
            case .value(let value, _):
                if item.uncertain && seen.conflicted {
                    #expect(seen.visible.contains(value), "lost: \(value); \(describe)")
                } else {
                    #expect(!seen.conflicted && seen.getStatus == 0 && seen.getValue == value, "want \(value); \(describe)")
                }
            case .absent:
                if !(item.uncertain && seen.conflicted) {
                    #expect(!seen.conflicted && seen.getStatus == 44, "want no item; \(describe)")
                }
            }
            if !seen.conflicted {
                #expect(seen.theirsStatus == 44, "get --theirs of an item in no conflict; \(describe)")
            }
        }
    }
}
