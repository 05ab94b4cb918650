import Foundation
import Testing
@testable import VaultCore
import VaultCrypto

/// Access groups are cryptographic: a scoped credential opens its groups and nothing else.
@Suite struct ScopedCredentialTests {
    let ci = AccessGroup("ci")!
    let prod = AccessGroup("prod")!

    /// A vault with two items in `ci` (one of them `always`) and one in `prod`.
    func makeVault(_ dir: TempDirectory, clock: TestClock = TestClock()) throws -> Vault {
        let vault = try Vault.makeTest(at: dir.location(), clock: clock)
        try vault.add("db", "ci", "ci-secret", group: ci)
        try vault.add("api", "ci", "ci-api", group: ci, accessibility: .always)
        try vault.add("db", "prod", "prod-secret", group: prod)
        return vault
    }

    func scoped(_ dir: TempDirectory, _ credential: ScopedCredential, clock: TestClock = TestClock()) -> Vault {
        var host = Vault.selfContainedHost(for: dir.location())
        host.now = { clock.now }
        return Vault(location: dir.location(), keys: .scoped(credential), host: host)
    }

    /// The credential as it travels: through its text form.
    func roundTrip(_ credential: ScopedCredential) throws -> ScopedCredential {
        try ScopedCredential.decode(credential.encoded(), source: "test")
    }

    @Test func opensItsGroupAndRefusesOthersWithExit30() throws {
        let dir = try TempDirectory()
        let owner = try makeVault(dir)
        let credential = try roundTrip(try owner.grant(groups: [ci], readOnly: false, expires: nil))
        let vault = scoped(dir, credential)
        #expect(try vault.secret("db", "ci") == "ci-secret")
        #expect(try vault.secret("api", "ci", group: ci) == "ci-api")
        #expect(try vault.attributes(matching: Query()).map(\.group) == [ci, ci])
        #expect(throws: VaultError.outsideCredential(group: prod, covered: [ci])) { try vault.secret("db", "prod", group: prod) }
        #expect(VaultError.outsideCredential(group: prod, covered: [ci]).status.exitCode == 30)
        // Without a group named, prod's item is simply not there for it.
        #expect(throws: VaultError.itemNotFound(Query(service: "db", account: "prod"))) { try vault.secret("db", "prod") }
        #expect(try vault.groups().groups.map(\.group) == [ci])
    }

    /// Everything the credential holds, tried as every key a record of another group could be sealed with, fails to open it.
    @Test func otherGroupsRecordsDoNotDecryptWithAnythingItHolds() throws {
        let dir = try TempDirectory()
        let owner = try makeVault(dir)
        let credential = try owner.grant(groups: [ci], readOnly: false, expires: nil)
        var material: [SecretBytes] = []
        for grant in credential.grants {
            material.append(grant.lookupKey.secret)
            if let indexMACKey = grant.indexMACKey { material.append(indexMACKey.secret) }
            material.append(contentsOf: grant.baseKeys.values.map(\.secret))
        }
        let file = try VaultFile.decode(fileBytes(dir.location().path)).file
        let prodID = try #require(
            Snapshot.unlock(
                fileBytes(dir.location().path), secret: testKeyFile, deviceKey: nil,
                path: ""
            ).keys.groupID(of: prod))
        let prodPositions = file.index.indices.filter { file.index[$0].groupID == prodID }
        #expect(prodPositions.count == 1)
        for position in prodPositions {
            let entry = file.index[position]
            let aad = AAD.record(vaultID: file.vaultID, recordID: entry.recordID, groupID: entry.groupID, classID: entry.classID)
            for key in material {
                for candidate in [key, KeyRing.derive(key, .record, entry.recordID, vaultID: file.vaultID)] {
                    #expect(throws: (any Error).self) { try AESGCM.open(file.records[position], key: candidate, aad: aad) }
                }
            }
        }
        // And the ring a credential builds has no key for prod at all.
        let ring = try Snapshot.open(fileBytes(dir.location().path), credential: credential, deviceKey: nil, path: "").keys
        #expect(ring.groups[prodID] == nil)
        #expect(ring.masterKey == nil && ring.wrapKey == nil)
        #expect(throws: (any Error).self) {
            try ring.recordKey(groupID: prodID, accessibility: .whenUnlocked, recordID: Bytes16([UInt8](repeating: 0, count: 16)))
        }
    }

    /// A read-write credential changes its groups' records; it cannot change the header (groups, keyslots).
    @Test func readWriteCredentialCannotChangeTheHeader() throws {
        let dir = try TempDirectory()
        let owner = try makeVault(dir)
        let credential = try owner.grant(groups: [ci], readOnly: false, expires: nil)
        var open = WorkingCopy(try Snapshot.open(fileBytes(dir.location().path), credential: credential, deviceKey: nil, path: ""))
        #expect(open.keys.headerMACKey == nil)
        _ = try open.encode()
        open.file.keyslots.removeAll()
        #expect(throws: VaultError.locked(nil)) { try open.encode() }
        var dropped = WorkingCopy(try Snapshot.open(fileBytes(dir.location().path), credential: credential, deviceKey: nil, path: ""))
        dropped.file.groups.removeLast()
        dropped.file.sections.removeLast()
        #expect(throws: VaultError.locked(nil)) { try dropped.encode() }
    }

    @Test func readOnlyCanReadButNotChangeAndHoldsNoMACKeys() throws {
        let dir = try TempDirectory()
        let owner = try makeVault(dir)
        let credential = try roundTrip(try owner.grant(groups: [ci], readOnly: true, expires: nil))
        #expect(credential.readOnly)
        #expect(credential.grants.allSatisfy { $0.indexMACKey == nil })
        let vault = scoped(dir, credential)
        #expect(try vault.secret("db", "ci") == "ci-secret")
        let before = fileBytes(dir.location().path)
        #expect(throws: VaultError.readOnlyCredential) { try vault.add("new", "x", "v", group: ci) }
        #expect(throws: VaultError.readOnlyCredential) {
            try vault.update(matching: Query(service: "db", account: "ci"), with: ItemChange(secret: SecretBytes(Array("n".utf8))))
        }
        #expect(throws: VaultError.readOnlyCredential) { try vault.delete(matching: Query(service: "db", account: "ci")) }
        #expect(fileBytes(dir.location().path) == before)
        // Below the policy check: the keys it holds cannot write a file anyway.
        var open = WorkingCopy(try Snapshot.open(before, credential: credential, deviceKey: nil, path: ""))
        #expect(!open.isWritable)
        #expect(throws: VaultError.locked(nil)) { try open.encode() }
    }

    @Test func readWriteCredentialChangesItsGroupOnly() throws {
        let dir = try TempDirectory()
        let owner = try makeVault(dir)
        let vault = scoped(dir, try roundTrip(try owner.grant(groups: [ci], readOnly: false, expires: nil)))
        try vault.add("new", "x", "v1", group: ci)
        try vault.update(matching: Query(service: "new", account: "x"), with: ItemChange(secret: SecretBytes(Array("v2".utf8))))
        #expect(try owner.secret("new", "x") == "v2")
        #expect(throws: VaultError.outsideCredential(group: prod, covered: [ci])) { try vault.add("p", "x", "v", group: prod) }
        #expect(throws: VaultError.ownerOnly(.createGroups)) { try vault.createGroup(AccessGroup("other")!) }
        try vault.delete(matching: Query(service: "new", account: "x"))
        #expect(try owner.secret("db", "prod") == "prod-secret")
        #expect(try owner.attributes(matching: Query(group: ci)).count == 2)
    }

    @Test func revokeEndsOldCredentialsAndKeepsItems() throws {
        let dir = try TempDirectory()
        let owner = try makeVault(dir)
        let old = try owner.grant(groups: [ci], readOnly: true, expires: nil)
        let oldWriter = try owner.grant(groups: [ci], readOnly: false, expires: nil)
        let before = try owner.attributes(matching: Query())
        #expect(try owner.revoke(group: ci) == 2)
        #expect(throws: VaultError.credentialRevoked(ci)) { try scoped(dir, old).secret("db", "ci") }
        #expect(throws: VaultError.credentialRevoked(ci)) { try scoped(dir, oldWriter).secret("db", "ci") }
        #expect(try owner.attributes(matching: Query()) == before)
        #expect(try owner.secret("db", "ci") == "ci-secret")
        #expect(try owner.secret("api", "ci") == "ci-api")
        let fresh = scoped(dir, try owner.grant(groups: [ci], readOnly: true, expires: nil))
        #expect(try fresh.secret("db", "ci") == "ci-secret")
        // The old keys do not open the re-sealed records, whatever the header says.
        let bytes = fileBytes(dir.location().path)
        let file = try VaultFile.decode(bytes).file
        var tried = 0
        for (position, entry) in file.index.enumerated() where entry.groupID == old.grants[0].groupID {
            let aad = AAD.record(vaultID: file.vaultID, recordID: entry.recordID, groupID: entry.groupID, classID: entry.classID)
            let base = try #require(old.grants[0].baseKeys[entry.classID])
            #expect(throws: (any Error).self) {
                try AESGCM.open(
                    file.records[position], key: KeyRing.derive(base.secret, .record, entry.recordID, vaultID: file.vaultID), aad: aad)
            }
            tried += 1
        }
        #expect(tried == 2, "the group's two records (db, api) were not both tried: \(tried)")
    }

    /// An after-first-unlock cache written before a revoke holds the group's old keys: they are left out, not read as damage.
    @Test func staleAfterFirstUnlockCacheIsIgnoredAfterRevoke() throws {
        let dir = try TempDirectory()
        let owner = try makeVault(dir)
        try owner.add("cron", "ci", "ci-cron", group: ci, accessibility: .afterFirstUnlock)
        let runtime = dir.path + "/.runtime/vault"
        let cacheName = try #require(FileSystem.list(runtime).first { $0.hasSuffix(".afu") })
        let staleCache = fileBytes(runtime + "/" + cacheName)
        try owner.revoke(group: ci)
        writeBytes(staleCache, to: runtime + "/" + cacheName)
        let unlocked = Vault(location: dir.location(), keys: .none, host: Vault.selfContainedHost(for: dir.location()))
        #expect(try unlocked.secret("api", "ci") == "ci-api")
        #expect(throws: VaultError.locked(.afterFirstUnlock, tried: [.deviceKeyNotEnough])) { try unlocked.secret("cron", "ci") }
    }

    @Test func deletedGroupReadsAsRevoked() throws {
        let dir = try TempDirectory()
        let owner = try makeVault(dir)
        let credential = try owner.grant(groups: [ci], readOnly: true, expires: nil)
        #expect(try owner.deleteGroup(ci).items == 2)
        #expect(throws: VaultError.credentialRevoked(ci)) { try scoped(dir, credential).secret("db", "ci") }
        #expect(try owner.groups().groups.map(\.group) == [.default, prod])
    }

    @Test func expiryIsCheckedAgainstTheClock() throws {
        let dir = try TempDirectory()
        let clock = TestClock()
        let owner = try makeVault(dir, clock: clock)
        let expires = clock.now.addingTimeInterval(3600)
        let credential = try roundTrip(try owner.grant(groups: [ci], readOnly: true, expires: expires))
        #expect(try scoped(dir, credential, clock: clock).secret("db", "ci") == "ci-secret")
        clock.advance(3600)
        #expect(throws: VaultError.credentialExpired(expires)) { try scoped(dir, credential, clock: clock).secret("db", "ci") }
    }

    @Test func anotherVaultsCredentialIsNamedAsSuch() throws {
        let dir = try TempDirectory()
        let owner = try makeVault(dir)
        let other = try Vault.makeTest(at: dir.location("other.vault"))
        try other.add("db", "ci", "other", group: ci)
        let foreign = try other.grant(groups: [ci], readOnly: true, expires: nil)
        _ = owner
        #expect(throws: VaultError.credentialForAnotherVault) { try scoped(dir, foreign).secret("db", "ci") }
    }

    @Test func grantOfAMissingGroupIsRefused() throws {
        let dir = try TempDirectory()
        let owner = try makeVault(dir)
        #expect(throws: VaultError.noSuchGroup(AccessGroup("nope")!, known: [.default, AccessGroup("ci")!, AccessGroup("prod")!])) {
            try owner.grant(groups: [AccessGroup("nope")!], readOnly: true, expires: nil)
        }
    }

    /// Every byte of the text changed: a clear error, never a crash, never another item's secret.
    @Test func damagedCredentialTextIsRefusedCleanly() throws {
        let dir = try TempDirectory()
        let owner = try makeVault(dir)
        let text = Array(try owner.grant(groups: [ci], readOnly: false, expires: nil).encoded().utf8)
        for position in text.indices {
            var damaged = text
            damaged[position] = damaged[position] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            do {
                let credential = try ScopedCredential.decode(String(decoding: damaged, as: UTF8.self), source: "test")
                // Only a change the checksum cannot see (e.g. trailing whitespace) may decode; it must still read right.
                #expect(try scoped(dir, credential).secret("db", "ci") == "ci-secret")
            } catch let error as VaultError {
                #expect(error.status == .decode, "byte \(position): \(error)")
            }
        }
        for length in [0, 10, text.count / 2, text.count - 2] {
            #expect(throws: (any Error).self) {
                try ScopedCredential.decode(String(decoding: text.prefix(length), as: UTF8.self), source: "test")
            }
        }
    }
}
