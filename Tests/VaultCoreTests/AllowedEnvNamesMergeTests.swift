import Testing
@testable import VaultCore
import VaultCrypto

/// The owner's allowed variable names folded from the team log's clear entries, and merged when the
/// owner joins two branches: what both sides agree on, the side that changed them when only one
/// did, none when both changed them differently (docs/TEAMS.md, "How a merge works").
@Suite struct AllowedEnvNamesMergeTests {
    let vaultID = [UInt8](repeating: 7, count: 16)
    let ci = GroupID(11), prod = GroupID(12)

    func names(_ text: String) -> AllowedEnvNames { AllowedEnvNames(text: text)! }

    /// A log whose first entries set `base`, then two branches of it, each with `changes` appended.
    func branches(base: [(GroupID, String?)], ours: [(GroupID, String?)], theirs: [(GroupID, String?)]) -> (TeamLog, TeamLog) {
        var log = TeamLog.created(vaultID: vaultID, keyEpoch: 1, roster: [])
        for (id, text) in base { log.append(.envNamesAllowed(id, text.map(names)), keyEpoch: log.headEpoch + 1) }
        var mine = log, other = log
        // Each branch changes something else too, so neither descends from the other.
        mine.append(.groupKeyReplaced(prod), keyEpoch: mine.headEpoch + 1)
        other.append(.rekeyed(trustKeyReplaced: false), keyEpoch: other.headEpoch + 1)
        for (id, text) in ours { mine.append(.envNamesAllowed(id, text.map(names)), keyEpoch: mine.headEpoch + 1) }
        for (id, text) in theirs { other.append(.envNamesAllowed(id, text.map(names)), keyEpoch: other.headEpoch + 1) }
        return (mine, other)
    }

    func joined(_ sides: (TeamLog, TeamLog)) throws -> [GroupID: AllowedEnvNames] {
        let one = try sides.0.joined(with: sides.1).log.allowedEnvNames()
        let other = try sides.1.joined(with: sides.0).log.allowedEnvNames()
        #expect(one == other, "the join depends on which side joins")
        return one
    }

    @Test func aLinearLogKeepsTheLastSetting() {
        var log = TeamLog.created(vaultID: vaultID, keyEpoch: 1, roster: [])
        #expect(log.allowedEnvNames().isEmpty)
        log.append(.envNamesAllowed(ci, names("APP_*")), keyEpoch: 2)
        log.append(.envNamesAllowed(prod, names("DEPLOY_TOKEN")), keyEpoch: 3)
        log.append(.envNamesAllowed(ci, names("APP_*,CI_*")), keyEpoch: 4)
        #expect(log.allowedEnvNames() == [ci: names("APP_*,CI_*"), prod: names("DEPLOY_TOKEN")])
        log.append(.envNamesAllowed(ci, nil), keyEpoch: 5)
        #expect(log.allowedEnvNames() == [prod: names("DEPLOY_TOKEN")])
    }

    @Test func aSettingChangedOnOneSideOnlyIsTaken() throws {
        #expect(try joined(branches(base: [(ci, "APP_*")], ours: [(ci, "CI_*")], theirs: [])) == [ci: names("CI_*")])
        #expect(try joined(branches(base: [(ci, "APP_*")], ours: [], theirs: [(ci, nil)])) == [:])
        #expect(try joined(branches(base: [], ours: [], theirs: [(prod, "P_*")])) == [prod: names("P_*")])
    }

    @Test func theSameSettingOnBothSidesIsKept() throws {
        #expect(try joined(branches(base: [(ci, "APP_*")], ours: [(ci, "X_*")], theirs: [(ci, "X_*")])) == [ci: names("X_*")])
    }

    @Test func settingsChangedDifferentlyOnBothSidesGoSoJobsNameTheirOwn() throws {
        let merged = try joined(branches(base: [(ci, "APP_*"), (prod, "P_*")], ours: [(ci, "APP_*,BROWSER")], theirs: [(ci, "CI_*")]))
        #expect(merged == [prod: names("P_*")])
    }

    /// A kind 8 entry round-trips through the file's bytes, its change in clear, and a changed byte
    /// of that clear part changes the head the trust statement signs.
    @Test func theClearNamesAreCoveredByTheHead() throws {
        var log = TeamLog.created(vaultID: vaultID, keyEpoch: 1, roster: [])
        log.append(.envNamesAllowed(ci, names("APP_*")), keyEpoch: 2)
        try log.sealPayloadsIfNeeded(wrapKey: WrapKey(secret: SecretBytes(random: 32)))
        var w = ByteWriter(capacity: 256)
        log.encode(into: &w)
        var r = ByteReader(w.bytes)
        let read = try TeamLog.decode(from: &r, vaultID: vaultID)
        #expect(read.head == log.head && read.allowedEnvNames() == [ci: names("APP_*")])
        var forged = w.bytes
        let at = try #require(forged.indices.first { Array(forged[$0..<min($0 + 5, forged.count)]) == Array("APP_*".utf8) })
        forged[at] = UInt8(ascii: "B")
        var forgedReader = ByteReader(forged)
        let forgedLog = try TeamLog.decode(from: &forgedReader, vaultID: vaultID)
        #expect(forgedLog.head != log.head)
    }
}
