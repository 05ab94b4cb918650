import Foundation
import Testing
@testable import VaultCore
import VaultCrypto

/// Merge vectors as data, as age keeps its testkit: each file in `MergeVectors/` is the script that
/// makes a merge's three sides — the base, then what ours and theirs each did to a copy of it — the
/// one who merges, and what must come of it: the outcome class (`merged`, `conflict`, `refused`,
/// `rolled-back`), the roster, the items in conflict and secrets to read. One test loops over them.
///
/// A script line is `base:`, `ours:` or `theirs:` followed by a step: `add SVC ACCT SECRET [GROUP]`,
/// `update SVC ACCT SECRET`, `delete SVC ACCT` (to the trash), `undelete SVC ACCT`, `move SVC ACCT GROUP`, `member-add NAME full`,
/// `member-add NAME GROUP [read-only]`, `member-remove NAME`, `revoke GROUP`, `rekey`,
/// `as NAME update SVC ACCT SECRET` (written with member NAME's identity), `group-delete GROUP`,
/// `wipe-trash` (every group's trash emptied for good), or `copy ours` (theirs becomes ours as it now is:
/// a replayed file). Two steps forge what a writer of one group alone can write (GroupWriterForgery):
/// `forge-tombstone GROUP SVC ACCT`, a tombstone in GROUP's block naming the item SVC/ACCT (its id and
/// record digest, looked up in the side itself or, when the side lacks it, in the other; a zero content
/// digest), and `forge-conflict SVC ACCT GROUP CLASS`, the record SVC/ACCT sealed again in its own group
/// with a conflict whose version, inline, names GROUP and CLASS. `after: STEP` is a step on ours after
/// the merge, before the expectations are read. `merger: owner|NAME`, `base-file: base|ours|none`
/// (git's merge base: the base, or ours as it stood after its steps — an old base handed over —, or
/// none, as git gives on add/add or a criss-cross history older than the item).
/// Expectations: `expect: CLASS` (also `damaged`: refused as damage, 93), `roster: NAMES…`, `conflicts: SERVICES…`, `secret SVC ACCT VALUE`,
/// `absent SVC ACCT`, `trashed SVC ACCT` / `not-trashed SVC ACCT` (the merged file's trash holds it, or not),
/// `no-read NAME SVC ACCT` (member NAME's identity opens nothing of it after the merge),
/// `other-version SVC ACCT VALUE` (`conflicts()` lists SVC, and the other version of its conflict
/// opens with VALUE), `conflicts-open` (`conflicts()` reads every item, and the owner's keys open
/// every version they keep: none is left sealed under a group's keys the vault no longer has),
/// `verified` (`verify` finds nothing damaged).
@Suite struct MergeVectorTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/MergeVectors"

    static var vectors: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".txt") }.sorted()
    }

    @Test(arguments: vectors) func vector(name: String) throws {
        let lines = try String(contentsOfFile: Self.directory + "/" + name, encoding: .utf8).split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        let run = try Run()
        var expectations: [String] = []
        var merger = "owner", baseFile = "base"
        var afterwards: [String] = []
        var base: [UInt8] = []
        for line in lines {
            let (key, rest) = Self.split(line)
            switch key {
            case "base:":
                try run.step(rest, on: run.ours)
            case "ours:", "theirs:":
                if base.isEmpty {
                    base = fileBytes(run.ours.location.path)
                    writeBytes(base, to: run.theirs.location.path)
                }
                try run.step(rest, on: key == "ours:" ? run.ours : run.theirs)
            case "merger:": merger = rest
            case "base-file:": baseFile = rest
            case "after:": afterwards.append(rest)
            default: expectations.append(line)
            }
        }
        if base.isEmpty {
            base = fileBytes(run.ours.location.path)
            writeBytes(base, to: run.theirs.location.path)
        }
        let mergedBase = baseFile == "ours" ? fileBytes(run.ours.location.path) : baseFile == "none" ? [] : base
        let before = fileBytes(run.ours.location.path)
        let merging = (merger == "owner" ? run.ours : try run.member(merger, on: run.ours)).reconfigured { $0.acceptTeamLog = true }
        var outcome = "merged"
        var report: MergeReport?
        do {
            report = try merging.merge(
                base: mergedBase, theirs: fileBytes(run.theirs.location.path), origins: ("ours", "theirs"), kdf: .testing
            ) { _ in }
            if !(report?.conflicts.isEmpty ?? true) { outcome = "conflict" }
        } catch VaultError.merge(.mergeInput(_, .snapshot(.rolledBack))) {
            outcome = "rolled-back"
        } catch let error as VaultError {
            outcome = error.status == .decode ? "damaged" : "refused"
        }
        for step in afterwards {
            do { try run.step(step, on: run.ours) } catch { Issue.record("\(name): after: \(step): \(error)") }
        }
        for expectation in expectations {
            let (key, rest) = Self.split(expectation)
            let words = rest.split(separator: " ").map(String.init)
            switch key {
            case "expect:":
                #expect(outcome == rest, "\(name): the merge was \(outcome)")
                if ["refused", "rolled-back", "damaged"].contains(outcome) {
                    #expect(fileBytes(run.ours.location.path) == before, "\(name): a refused merge changed the file")
                }
            case "roster:":
                #expect(try run.ours.members().map(\.name).sorted() == words.sorted(), "\(name): roster")
            case "conflicts:":
                #expect((report?.conflicts.map(\.service) ?? []).sorted() == words.sorted(), "\(name): conflicts")
            case "secret":
                #expect(try run.ours.secret(words[0], words[1]) == words[2], "\(name): \(rest)")
            case "absent":
                #expect(try run.ours.attributes(matching: Query(service: words[0], account: words[1])).isEmpty, "\(name): \(rest)")
            case "trashed", "not-trashed":
                let trashed = try run.ours.trash(matching: Query(service: words[0], account: words[1])).items
                #expect(trashed.count == (key == "trashed" ? 1 : 0), "\(name): \(expectation)")
            case "no-read":
                #expect(throws: VaultError.self, "\(name): \(words[0]) reads \(words[1])") {
                    try run.member(words[0], on: run.ours).secret(words[1], words[2])
                }
            case "other-version":
                #expect(try run.ours.conflicts().contains { $0.attributes.service == words[0] }, "\(name): \(expectation)")
                #expect(
                    try run.ours.otherVersion(matching: Query(service: words[0], account: words[1])).item.secret.text == words[2],
                    "\(name): \(expectation)")
            case "conflicts-open":
                let sealed = try run.ours.conflicts().filter(\.otherIsSealedElsewhere).map(\.attributes.service)
                #expect(sealed.isEmpty, "\(name): the owner's keys do not open the other versions of \(sealed)")
            case "verified":
                let report = try run.ours.verify()
                #expect(
                    !report.isDamaged,
                    "\(name): verify: damage \(String(describing: report.damage)), \(report.damagedRecords) records, \(report.damagedListings) listings"
                )
            default:
                Issue.record("\(name): an unknown line \"\(expectation)\"")
            }
        }
    }

    static func split(_ line: String) -> (String, String) {
        guard let space = line.firstIndex(of: " ") else { return (line, "") }
        return (String(line[..<space]), String(line[line.index(after: space)...]).trimmingCharacters(in: .whitespaces))
    }

    /// The two clones of one vault a vector's sides are made in, and its members' identities.
    final class Run {
        let directories: [TempDirectory]
        let ours: Vault
        let theirs: Vault
        var identities: [String: AgeIdentity] = [:]

        init() throws {
            let first = try TempDirectory(), second = try TempDirectory()
            ours = try Vault.makeTest(at: first.location("team.vault"))
            theirs = Vault(location: second.location("team.vault"), credential: testKeyFile)
            directories = [first, second]
        }

        func identity(_ name: String) throws -> AgeIdentity {
            if let known = identities[name] { return known }
            let made = try AgeIdentity.generate()
            identities[name] = made
            return made
        }

        /// Member `name`'s view of `vault`'s file, pinned to the owner's trust key.
        func member(_ name: String, on vault: Vault) throws -> Vault {
            Vault(
                location: vault.location, keys: .identity([try identity(name)]), host: Vault.selfContainedHost(for: vault.location),
                configuration: Vault.Configuration(trustedFingerprint: try vault.trustFingerprint()))
        }

        func step(_ text: String, on vault: Vault) throws {
            var words = text.split(separator: " ").map(String.init)
            var target = vault
            if words.first == "as" {
                target = try member(words[1], on: vault)
                words.removeFirst(2)
            }
            func group(_ index: Int) -> AccessGroup { words.count > index ? AccessGroup(words[index])! : .default }
            switch words[0] {
            case "add":
                try target.add(
                    NewItem(
                        service: words[1], account: words[2], group: group(4), details: ItemDetails(),
                        secret: SecretBytes(Array(words[3].utf8))))
            case "update":
                try target.update(
                    matching: Query(service: words[1], account: words[2]), with: ItemChange(secret: SecretBytes(Array(words[3].utf8))))
            case "delete":
                _ = try target.delete(matching: Query(service: words[1], account: words[2]))
            case "undelete":
                try target.undelete(matching: Query(service: words[1], account: words[2]))
            case "move":
                _ = try target.move(matching: Query(service: words[1], account: words[2]), toGroup: AccessGroup(words[3])!)
            case "member-add":
                let full = words[2] == "full"
                try target.addMember(
                    name: words[1], recipient: try identity(words[1]).recipient, groups: full ? [] : [AccessGroup(words[2])!],
                    readOnly: words.count > 3 && words[3] == "read-only")
            case "member-remove":
                _ = try target.removeMember(named: words[1], kdf: .testing) { _ in }
            case "revoke":
                _ = try target.revoke(group: AccessGroup(words[1])!)
            case "rekey":
                _ = try target.rekey(kdf: .testing) { _ in }
            case "group-delete":
                try target.deleteGroup(AccessGroup(words[1])!)
            case "wipe-trash":
                try target.emptyTrash(group: nil)
            case "forge-tombstone":
                let named = { (vault: Vault) in
                    try GroupWriterForgery.indexEntries(of: vault).first { $0.key.service == words[2] && $0.key.account == words[3] }?.value
                }
                let otherSide = vault.location.path == ours.location.path ? theirs : ours
                guard let victim = try named(target) ?? named(otherSide) else {
                    Issue.record("forge-tombstone: no item \(words[2])/\(words[3])")
                    return
                }
                try GroupWriterForgery.tombstone(
                    in: target, group: AccessGroup(words[1])!, naming: victim.itemID, recordDigest: victim.recordDigest)
            case "forge-conflict":
                guard let key = try target.attributes(matching: Query(service: words[1], account: words[2])).first?.key else {
                    Issue.record("forge-conflict: no item \(words[1])/\(words[2])")
                    return
                }
                try GroupWriterForgery.conflict(
                    in: target, on: key, naming: AccessGroup(words[3])!, accessibility: Accessibility(rawValue: words[4])!,
                    secret: "forged")
            case "copy":
                writeBytes(fileBytes(ours.location.path), to: theirs.location.path)
            default:
                Issue.record("an unknown step \"\(text)\"")
            }
        }
    }
}
