import Foundation
import Testing
@testable import VaultCore
import VaultCrypto

/// Merges at the edges: a side rolled back, damaged or of another vault; deletions against revisions; tombstones; no base.
extension MergeTests {
    /// A removed full member copies back her pre-removal file, edits it and commits it on top of the
    /// removal: a side whose key epoch is below its own merge base was rolled back, and is refused.
    @Test func aSideRolledBackBelowItsBaseIsRefused() throws {
        let mallory = try AgeIdentity.generate()
        let clones = try clones { try $0.addMember(name: "mallory", recipient: mallory.recipient, groups: [], readOnly: false) }
        _ = try clones.ours.removeMember(named: "mallory", kdf: .testing) { _ in }
        let afterRemoval = clones.ourBytes
        try change(clones.theirs, "a", to: "evil")  // the pre-removal copy, at the old epoch
        try clones.ours.add("d", "x", "d-ours")
        let before = clones.ourBytes
        #expect(throws: VaultError.self) { try clones.merge(base: afterRemoval) }
        do {
            try clones.merge(base: afterRemoval)
        } catch VaultError.merge(.mergeInput(.theirs, .snapshot(.rolledBack(_, let found, let expected)))) {
            #expect(found == 2 && expected == 4)  // mallory added at 2; removed at 3, re-keyed at 4
        }
        let unchanged = clones.ourBytes == before  // compared first: a failed expectation prints big arrays slowly
        #expect(unchanged)
        #expect(try clones.ours.members().isEmpty && clones.ours.secret("a", "x") == "a-base")
    }

    /// A branch cut before a member's removal cannot dodge the rule by raising its own epoch
    /// (`revoke`): its changes are still conflicts, and the version shown is not the branch's.
    @Test func aBranchOfARemovedMemberStaysSupersededWhateverItsEpoch() throws {
        for revokes in [1, 2] {
            let mallory = try AgeIdentity.generate()
            let clones = try clones { try $0.addMember(name: "mallory", recipient: mallory.recipient, groups: [], readOnly: false) }
            _ = try clones.ours.removeMember(named: "mallory", kdf: .testing) { _ in }
            try change(clones.theirs, "a", to: "a-from-mallorys-branch")
            for _ in 0..<revokes { try clones.theirs.revoke(group: .default) }
            let report = try clones.merge()
            #expect(report.conflicts.map(\.service) == ["a"], "\(revokes) revokes")
            #expect(try clones.ours.secret("a", "x") == "a-base", "\(revokes) revokes")
            #expect(try clones.ours.otherVersion(matching: Query(service: "a", account: "x")).item.secret.text == "a-from-mallorys-branch")
            #expect(try clones.ours.members().isEmpty, "mallory stays removed (\(revokes) revokes)")
        }
    }

    /// A re-key on one branch and revokes on the other: the join keeps the re-key (the result is
    /// written on ours) and makes the revokes again; neither the base's keys nor the trust key the
    /// re-key retired come back.
    @Test func aRekeyOnOneBranchAndRevokesOnTheOtherBothHold() throws {
        let clones = try clones()
        _ = try clones.ours.rekey(kdf: .testing) { _ in }
        let newTrust = try clones.ours.trustFingerprint()
        let rekeyedKey = try Snapshot.unlock(clones.ourBytes, secret: testKeyFile, deviceKey: nil, path: "ours").keys.masterKey!
        let baseKey = try Snapshot.unlock(clones.base, secret: testKeyFile, deviceKey: nil, path: "base").keys.masterKey!
        try clones.theirs.revoke(group: .default)
        try clones.theirs.revoke(group: .default)  // their side now at the higher epoch, under the base's master key
        let report = try clones.merge()
        #expect(report.joinedLogs && !report.rekeyed && report.groupsRevoked == [.default])
        #expect(throws: VaultError.self) { try Snapshot.open(FileBytes(clones.ourBytes), masterKey: baseKey, deviceKey: nil, path: "ours") }
        #expect(
            try Snapshot.open(FileBytes(clones.ourBytes), masterKey: rekeyedKey, deviceKey: nil, path: "ours").file.keyEpoch
                == report.keyEpoch)
        #expect(try clones.ours.secret("a", "x") == "a-base")
        // The trust key that re-key made (to shut out an old passphrase, say) is the one the result keeps.
        #expect(try clones.ours.trustFingerprint() == newTrust)
    }

    /// Before signing a join, the owner is shown the other branch's entries as facts (the command
    /// line words them): who was added with what scope, who was removed, which group lost its key or went.
    @Test func theOwnersJoinShowsTheOtherBranchsEntries() throws {
        let dave = try AgeIdentity.generate(), erin = try AgeIdentity.generate()
        let old = AccessGroup("old")!
        let clones = try clones {
            try $0.add("deploy", "ci", "token", group: ci)
            try $0.createGroup(old)
            try $0.addMember(name: "dave", recipient: dave.recipient, groups: [ci], readOnly: true)
        }
        try clones.ours.add("d", "x", "d-ours")
        _ = try clones.ours.addMember(name: "frank", recipient: try AgeIdentity.generate().recipient, groups: [], readOnly: false)
        _ = try clones.theirs.addMember(name: "erin", recipient: erin.recipient, groups: [ci], readOnly: false)
        _ = try clones.theirs.removeMember(named: "dave", kdf: .testing) { _ in }
        _ = try clones.theirs.deleteGroup(old)
        var shown: [TeamLogReview] = []
        let report = try clones.ours.reconfigured { $0.reviewTeamLog = { shown.append($0) } }.merge(
            base: clones.base, theirs: clones.theirBytes, origins: ("ours", "theirs"), kdf: .testing
        ) { _ in }
        #expect(report.joinedLogs)
        let erinEntry = TeamLogReview.ReviewedMember(
            name: "erin", recipient: erin.recipient.description, scope: .groups(count: 1, readOnly: false))
        #expect(shown.map(\.reason) == [.join])
        #expect(
            shown.first?.entries == [
                .memberAdded(erinEntry), .memberRemoved(name: "dave", recipient: dave.recipient.description),
                .groupKeyReplaced(ci), .groupDeleted(old)
            ], "\(shown)")
    }

    /// A side whose record does not match its index entry's digest stops the merge, and the refusal
    /// names which file it is: their side, by its origin, under the path of the vault merged into.
    @Test func aDamagedRecordIsNamedByTheSideItIsOn() throws {
        let clones = try clones()
        try change(clones.theirs, "a", to: "a-theirs")
        var bytes = clones.theirBytes
        let decoded = try VaultFile.decode(FileBytes(bytes))
        let record = try #require(decoded.file.records.stored(at: 0).fileRange).1
        bytes[record.lowerBound + record.count / 2] ^= 0x01
        writeBytes(bytes, to: clones.theirs.location.path)
        let before = clones.ourBytes
        let damage = VaultError.corrupted(path: clones.ours.location.path, detail: .violates(.recordDigestMismatch))
        #expect(throws: VaultError.mergeInput(.theirs(origin: "theirs"), refusal: damage)) { try clones.merge() }
        #expect(clones.ourBytes == before)
    }

    /// A team log that opened but does not fold, found only by the merge, is damage of the vault file
    /// the merge writes, named by its path.
    @Test func aLogThatDoesNotFoldIsDamageOfTheFileMergedInto() throws {
        #expect(throws: VaultError.corrupted(path: "/work/team.vault", detail: .violates(.entryOutOfChain))) {
            try MergePlan.readingLogs(of: "/work/team.vault") { throw MalformedInput(.violates(.entryOutOfChain)) }
        }
    }

    /// Revokes on both branches all hold: the credential one ended stays ended.
    @Test func revokesOnBothBranchesAllHold() throws {
        let clones = try clones { try $0.add("deploy", "ci", "token", group: ci) }
        let leaked = try clones.ours.grant(groups: [ci], readOnly: true, expires: nil)
        try clones.ours.revoke(group: ci)
        for _ in 0..<2 { try clones.theirs.revoke(group: .default) }
        let report = try clones.merge()
        #expect(report.groupsRevoked == [.default])
        let withLeaked = Vault(
            location: clones.ours.location, keys: .scoped(leaked), host: Vault.selfContainedHost(for: clones.ours.location))
        #expect(throws: VaultError.credentialRevoked(ci)) { try withLeaked.secret("deploy", "ci", group: ci) }
        #expect(try clones.ours.secret("deploy", "ci", group: ci) == "token")
    }

    /// A conflict whose two versions do not fit in one record stops the merge: nothing is written
    /// that no reader could open.
    @Test func aConflictTooLargeForARecordStopsTheMerge() throws {
        let big = { (fill: Character) in SecretBytes(Array(String(repeating: fill, count: 600 * 1024).utf8)) }
        let clones = try clones()
        try clones.ours.update(matching: Query(service: "a", account: "x"), with: ItemChange(secret: big("o")))
        try clones.theirs.update(matching: Query(service: "a", account: "x"), with: ItemChange(secret: big("t")))
        let before = clones.ourBytes
        #expect(throws: VaultError.recordTooLarge(ItemKey(group: .default, service: "a", account: "x"))) { try clones.merge() }
        let unchanged = clones.ourBytes == before  // compared first: a failed expectation prints big arrays slowly
        #expect(unchanged)
    }

    /// An item renamed on one side onto a name the other side added is one item in conflict, not two of one name.
    @Test func aRenameOntoANameTheOtherSideAddedIsOneItemInConflict() throws {
        for renamedByUs in [true, false] {
            let clones = try clones()
            let (renamer, adder) = renamedByUs ? (clones.ours, clones.theirs) : (clones.theirs, clones.ours)
            try renamer.move(matching: Query(service: "a", account: "x"), toService: "new")
            try adder.add("new", "x", "new-added")
            let report = try clones.merge()
            #expect(report.conflicts.map(\.service) == ["new"], "renamed by \(renamedByUs ? "us" : "them")")
            #expect(try clones.ours.attributes(matching: Query(service: "new")).count == 1)
            let versions = Set([
                try clones.ours.secret("new", "x"),
                try clones.ours.otherVersion(matching: Query(service: "new", account: "x")).item.secret.text
            ])
            #expect(versions == ["a-base", "new-added"], "renamed by \(renamedByUs ? "us" : "them")")
        }
    }

    /// A merge records no counters as seen: git may abort the merge and put the older file back.
    @Test func anAbortedMergeLeavesTheMachineAbleToWriteTheOlderFile() throws {
        let clones = try clones()
        for round in 0..<3 { try change(clones.theirs, "b", to: "b-\(round)") }
        let before = clones.ourBytes
        try clones.merge()
        writeBytes(before, to: clones.ours.location.path)  // git merge --abort
        try change(clones.ours, "c", to: "c-after-the-abort")
        #expect(try clones.ours.secret("c", "x") == "c-after-the-abort")
    }

    @Test func anotherVaultOrADamagedSideIsRefusedAndChangesNothing() throws {
        let clones = try clones()
        try change(clones.theirs, "a", to: "a-theirs")
        let before = clones.ourBytes
        let stranger = try TempDirectory()
        let strangerVault = try Vault.makeTest(at: stranger.location())
        try strangerVault.add("a", "x", "forged")
        #expect(throws: VaultError.mergeOfAnotherVault(path: clones.ours.location.path)) {
            try clones.ours.merge(
                base: clones.base, theirs: fileBytes(strangerVault.location.path), origins: ("ours", "theirs"), kdf: .testing
            ) { _ in }
        }
        var damaged = clones.theirBytes
        damaged[damaged.count - 20] ^= 1
        #expect(throws: VaultError.self) {
            try clones.ours.merge(base: clones.base, theirs: damaged, origins: ("ours", "theirs"), kdf: .testing) { _ in }
        }
        let unchanged = clones.ourBytes == before  // compared first: a failed expectation prints big arrays slowly
        #expect(unchanged)
    }

    /// An item one side deleted stays deleted when the other side holds the revision deleted, whatever
    /// merge base git hands over: none (add/add), or one from before the item (a criss-cross history).
    @Test func aDeletionStandsAgainstTheRevisionItRemovedWhateverTheBase() throws {
        for deleting in [MergeSide.ours, .theirs] {
            for oldBase in [true, false] {
                var beforeTheItem: [UInt8] = []
                let clones = try clones { vault in
                    beforeTheItem = fileBytes(vault.location.path)
                    try vault.add("d", "x", "d-base")
                }
                _ = try (deleting == .ours ? clones.ours : clones.theirs).delete(matching: Query(service: "d", account: "x"))
                try clones.merge(base: oldBase ? beforeTheItem : [])
                #expect(try names(clones.ours) == ["a", "b", "c"], "deleted on \(deleting), old base \(oldBase)")
                #expect(try clones.ours.conflicts().isEmpty)
            }
        }
    }

    @Test func aChangeMadeAfterADeletionComesBackAsAConflict() throws {
        let clones = try clones()
        _ = try clones.ours.delete(matching: Query(service: "a", account: "x"))
        try change(clones.theirs, "a", to: "a-after")
        try clones.merge(base: [])
        #expect(try clones.ours.secret("a", "x") == "a-after")
        let listed = try clones.ours.conflicts()
        #expect(listed.count == 1 && listed[0].currentSide == .theirs && listed[0].other == nil)
    }

    /// The tombstone names the revision by what it holds, not only by its sealed bytes: a revision the
    /// other side sealed again (a re-key re-seals every item) still matches, and the tombstone itself
    /// outlives the deleting side's own revoke and re-key. (A revoke on the other side is not tried:
    /// it makes every change of ours to that group a conflict, the deletion too.)
    @Test func aTombstoneMatchesARevisionSealedAgainAndOutlivesRevokeAndReKey() throws {
        for resealed in [MergeSide.theirs, .ours] {
            let clones = try clones()
            _ = try clones.ours.delete(matching: Query(service: "a", account: "x"))
            if resealed == .theirs {
                _ = try clones.theirs.rekey(kdf: .testing) { _ in }
            } else {
                _ = try clones.ours.revoke(group: .default)
                _ = try clones.ours.rekey(kdf: .testing) { _ in }
            }
            try clones.merge(base: [])
            #expect(try names(clones.ours) == ["b", "c"], "resealed on \(resealed)")
            #expect(try clones.ours.conflicts().isEmpty)
        }
    }

    /// The merged file keeps the tombstones of both sides, so a later merge with a stale clone does
    /// not bring back what the other side deleted.
    @Test func aMergeKeepsTheTombstonesOfBothSides() throws {
        let clones = try clones()
        let stale = clones.base
        _ = try clones.theirs.delete(matching: Query(service: "b", account: "x"))
        try clones.merge()
        #expect(try names(clones.ours) == ["a", "c"])
        let merged = clones.ourBytes
        // A third clone still at the base merges into ours with no base: b stays deleted.
        writeBytes(stale, to: clones.theirs.location.path)
        try clones.merge(base: [])
        #expect(try names(clones.ours) == ["a", "c"])
        #expect(!merged.isEmpty)
        #expect(try clones.ours.conflicts().isEmpty)
    }

    @Test func withoutABaseEveryDifferenceIsAChangeAndNothingIsLost() throws {
        let clones = try clones()
        try change(clones.ours, "a", to: "a-ours")
        try clones.theirs.add("d", "x", "d-theirs")
        try clones.merge(base: [])
        #expect(try clones.ours.secret("d", "x") == "d-theirs")
        #expect(try clones.ours.secret("a", "x") == "a-ours")
        #expect(try clones.ours.conflicts().map(\.attributes.service) == ["a"])
    }
}
