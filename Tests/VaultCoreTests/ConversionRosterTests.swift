import Foundation
import Testing
@testable import VaultCore
import VaultCrypto

/// A conversion from format v2 signs only the roster the owner wrote (docs/TEAMS.md, "The team
/// log"): in v2 a full member holds the header MAC key and can rewrite a roster part, so the
/// owner's non-interactive conversion with `acceptTeamLog` alone signs no member that differs
/// from the roster this machine last wrote; naming it (`acceptedMembers`) does.
@Suite struct ConversionRosterTests {
    struct Stop: Error {}

    /// The owner's vault with full members mallory and carol (recorded as written here), made a
    /// format v2 file as an older build wrote it: the team log gone, the v2 trust statement signed
    /// with the owner's trust key, the rest written by mallory's full-member keys (which keep v2).
    func makeV2(_ dir: TempDirectory) throws -> (location: VaultLocation, mallory: Vault, carol: AgeIdentity, pin: String) {
        let location = dir.location()
        let owner = try Vault.makeTest(at: location)
        try owner.add("db", "prod", "prod-secret")
        let malloryIdentity = try AgeIdentity.generate(), carol = try AgeIdentity.generate()
        try owner.addMember(name: "mallory", recipient: malloryIdentity.recipient, groups: [], readOnly: false)
        try owner.addMember(name: "carol", recipient: carol.recipient, groups: [], readOnly: false)
        let pin = try owner.trustFingerprint()
        var trustKey: TrustKey?
        _ = try? owner.transaction { vault -> Void in
            try vault.unwrapTrustKey()
            trustKey = vault.trustKey
            throw Stop()
        }
        let key = try #require(trustKey)
        let mallory = Vault(
            location: location, keys: .identity([malloryIdentity]), host: Vault.selfContainedHost(for: dir.location("mallory.vault")),
            configuration: Vault.Configuration(trustedFingerprint: pin))
        try mallory.transaction { vault in
            vault.file.version = 2
            vault.file.teamLog = nil
            vault.file.writeID = []
            vault.file.memberRemovals = []
            vault.file.trustSignature = try key.sign(TrustFields(of: vault.file).statement(vaultID: vault.file.vaultID))
            vault.trustAsRead = TrustFields(of: vault.file)
        }
        #expect(try VaultFile.decode(fileBytes(location.path)).file.version == 2)
        return (location, mallory, carol, pin)
    }

    /// The attack: mallory, a full member, re-seals carol's roster part to a key of her own; the
    /// owner's conversion with `acceptTeamLog` and no terminal must not sign it.
    @Test func aConversionDoesNotSignATamperedRosterUnnamed() throws {
        let dir = try TempDirectory()
        let (location, mallory, _, _) = try makeV2(dir)
        let second = try AgeIdentity.generate()
        try mallory.transaction { vault in
            guard let wrapKey = vault.keys.wrapKey, let keys = vault.keys.fullMemberKeys else { throw Stop() }
            let rosters = try vault.file.members.map { try $0.roster(wrapKey: wrapKey, vaultID: vault.file.vaultID) }
            let at = try #require(rosters.firstIndex { $0.name == "carol" })
            let forged = Member(name: "carol", recipient: second.recipient, addedAt: rosters[at].addedAt, scope: .full)
            vault.file.members[at] = try MemberSlot.seal(forged, keys: .full(keys), vaultID: vault.file.vaultID, wrapKey: wrapKey)
        }
        func owner(accepting named: Set<String>) -> Vault {
            var configuration = Vault.Configuration(acceptTeamLog: true)
            configuration.acceptedMembers = named
            return Vault(location: location, credential: testKeyFile, configuration: configuration)
        }
        do {
            try owner(accepting: []).add("api", "x", "after")
            Issue.record("the owner's conversion signed carol's rewritten roster part unseen")
        } catch VaultError.team(.teamLogReviewNeeded(let review)) {
            #expect(review.reason == .conversion && review.unvouched == ["carol"], "\(review)")
        }
        #expect(try VaultFile.decode(fileBytes(location.path)).file.version == 2, "the refused conversion wrote")
        try owner(accepting: ["carol"]).add("api", "x", "after")
        #expect(try VaultFile.decode(fileBytes(location.path)).file.version == VaultFile.version, "named, the conversion goes through")

        // The roster as written here converts with acceptTeamLog alone.
        let other = try TempDirectory()
        let (untouched, _, _, _) = try makeV2(other)
        try Vault(location: untouched, credential: testKeyFile, configuration: Vault.Configuration(acceptTeamLog: true)).add(
            "api", "x", "after")
        #expect(try VaultFile.decode(fileBytes(untouched.path)).file.version == VaultFile.version)
    }
}
