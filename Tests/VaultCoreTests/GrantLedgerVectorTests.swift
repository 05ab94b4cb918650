import Foundation
import Testing
@testable import VaultCore
import VaultCrypto

/// The committed vector with a grant ledger (Fixtures/v3-ledger): two grants, one ended by a revoke
/// of one of its groups; its layout as docs/FORMAT.md, "Grant ledger", gives it, and its merge rule.
@Suite struct GrantLedgerVectorTests {
    static let fixtures = MigrationTests.fixtures + "/v3-ledger"

    func copy(_ path: String, into dir: TempDirectory, as file: String) -> VaultLocation {
        let location = dir.location(file)
        writeBytes(fileBytes(path), to: location.path)
        writeBytes(fileBytes(MigrationTests.fixtures + "/v3-trash/device.key"), to: location.legacyDeviceKeyPath)
        return location
    }

    func owner(_ location: VaultLocation) -> Vault {
        Vault(
            location: location, credential: MigrationTests.passphrase,
            configuration: Vault.Configuration(acceptTeamLog: true, trashDays: 36_500))
    }

    static let expected: [(id: String, groups: [String], readOnly: Bool, issued: Double, expires: Double?, revoked: Double?)] = [
        ("2553dc672bd5316b", ["ci"], true, 1_796_083_200, 1_814_313_600, nil),
        ("580c50faaca92a49", ["default", "ci"], false, 1_796_083_260, nil, 1_796_647_131)
    ]

    static func matches(_ grants: [GrantEntry]) -> Bool {
        grants.count == expected.count
            && zip(grants, expected).allSatisfy { grant, want in
                grant.id == want.id && grant.groups.map(\.name) == want.groups && grant.readOnly == want.readOnly
                    && grant.issued.timeIntervalSince1970 == want.issued && grant.expires?.timeIntervalSince1970 == want.expires
                    && grant.revoked?.timeIntervalSince1970 == want.revoked
            }
    }

    @Test func theVectorsLedgerHoldsBothGrants() throws {
        let dir = try TempDirectory()
        let vault = owner(copy(Self.fixtures + "/v3-ledger.vault", into: dir, as: "ledger.vault"))
        let grants = try vault.grants()
        #expect(Self.matches(grants), "the vector's ledger reads \(grants)")
        #expect(grants.map { $0.state(at: Date(timeIntervalSince1970: 1_800_000_000)) } == [.live, .revoked])
        #expect(grants.first?.state(at: Date(timeIntervalSince1970: 1_814_313_600)) == .expired)
        #expect(!(try vault.verify()).isDamaged)
        // The credential file names its grant: the first 8 bytes of its checksum. Copied, as a fresh
        // checkout leaves the committed file 0644 and a credential is refused unless 0600.
        let credentialPath = dir.location("ci.cred").path
        writeBytes(fileBytes(Self.fixtures + "/ci.cred"), to: credentialPath)
        let credential = try ScopedCredential.read(path: credentialPath)
        #expect(credential.grantID == "2553dc672bd5316b")
        // Group default's block was sealed again under its new key with the revocation; ci's holds both, neither revoked.
        let perGroup = try vault.withKeys { () -> [String: [GrantRecord]] in
            let snapshot = try vault.readSnapshot()
            return try Dictionary(
                uniqueKeysWithValues: snapshot.file.groups.map {
                    (snapshot.keys.groups[$0.groupID]!.group.name, try snapshot.grantLedger(of: $0.groupID))
                })
        }
        #expect(
            perGroup["ci"]?.map { hex($0.id) } == ["2553dc672bd5316b", "580c50faaca92a49"]
                && perGroup["ci"]?.allSatisfy { $0.revoked == 0 } == true)
        #expect(perGroup["default"]?.map { hex($0.id) } == ["580c50faaca92a49"] && perGroup["default"]?.first?.revoked == 1_796_647_131)
    }

    /// Merged either way with the file from before the grants (v3-purge), every record stays, revoked where either side revoked it.
    @Test func aMergeEitherWayKeepsTheLedger() throws {
        let dir = try TempDirectory()
        let before = fileBytes(MigrationTests.fixtures + "/v3-purge/v3-purge.vault")
        let ledger = fileBytes(Self.fixtures + "/v3-ledger.vault")
        let holding = owner(copy(Self.fixtures + "/v3-ledger.vault", into: dir, as: "holding.vault"))
        try holding.merge(base: before, theirs: before, origins: ("holding", "before"), kdf: .testing) { _ in }
        let kept = try holding.grants()
        #expect(Self.matches(kept), "the target's ledger after a merge with the file before it: \(kept)")
        let lacking = owner(copy(MigrationTests.fixtures + "/v3-purge/v3-purge.vault", into: dir, as: "lacking.vault"))
        try lacking.merge(base: before, theirs: ledger, origins: ("lacking", "ledger"), kdf: .testing) { _ in }
        let brought = try lacking.grants()
        #expect(Self.matches(brought), "the other side's ledger after the merge: \(brought)")
    }

    /// The rule alone: one record per id from either list, the earliest revocation winning.
    @Test func theMergeRuleKeepsBothSidesAndTheEarliestRevocation() throws {
        func record(_ id: UInt8, issued: UInt64, revoked: UInt64) -> GrantRecord {
            GrantRecord(
                id: [UInt8](repeating: id, count: 8), readOnly: false, issued: issued, expires: 0, revoked: revoked,
                groups: [.init(groupID: GroupID(7), name: "ci", keyCheck: [UInt8](repeating: 1, count: 16))])
        }
        let ours = [record(1, issued: 10, revoked: 0), record(2, issued: 20, revoked: 50)]
        let theirs = [record(2, issued: 20, revoked: 40), record(3, issued: 5, revoked: 0), record(1, issued: 10, revoked: 30)]
        let merged = GrantRecord.merged([ours, theirs])
        #expect(merged == [record(3, issued: 5, revoked: 0), record(1, issued: 10, revoked: 30), record(2, issued: 20, revoked: 40)])
        #expect(GrantRecord.merged([theirs, ours]) == merged)
        #expect(try GrantRecord.decode(GrantRecord.encode(merged)) == merged)
    }
}
