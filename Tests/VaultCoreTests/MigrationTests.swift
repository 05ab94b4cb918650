import Foundation
import Testing
@testable import VaultCore
import VaultCrypto

#if canImport(Glibc)
import Glibc
#endif

/// Format v1 files open and read as before; the first write converts them to
/// v2 (keeping the v1 file), except in a git work tree, where only `vault
/// upgrade` does. The committed v2 vector opens too.
@Suite struct MigrationTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/Fixtures"
    static let passphrase = UnlockSecret.passphrase(SecretBytes(Array("correct horse battery staple".utf8)))
    static let secrets = [
        "github/ci-bot": "ghp_testvector_0001", "npm/publish": "npm_testvector_0002",
        "device/bound": "bound_testvector_0004", "always/any": "always_testvector_0005"
    ]

    /// The committed vector of `version` copied into `dir` (inside a git work tree when `inGit`), with its device key beside it.
    func copyVector(_ version: Int, into dir: TempDirectory, inGit: Bool = false) -> VaultLocation {
        if inGit { mkdir(dir.path + "/.git", 0o700) }
        let location = dir.location("v\(version).vault")
        writeBytes(fileBytes(Self.fixtures + "/v\(version)/v\(version).vault"), to: location.path)
        if !inGit { writeBytes(fileBytes(Self.fixtures + "/v\(version)/device.key"), to: location.legacyDeviceKeyPath) }
        return location
    }

    func expectEveryItem(_ vault: Vault) throws {
        for (key, secret) in Self.secrets {
            let parts = key.split(separator: "/").map(String.init)
            #expect(try vault.secret(parts[0], parts[1]) == secret, "\(key)")
        }
        #expect(try vault.item(matching: Query(service: "binary", account: "nul")).secret.copyBytes() == [0, 1, 2, 0xFF])
    }

    @Test func theCommittedV2VectorOpens() throws {
        let dir = try TempDirectory()
        let location = copyVector(2, into: dir)
        let vault = Vault(location: location, credential: Self.passphrase)
        try expectEveryItem(vault)
        #expect(try vault.item(matching: Query(service: "npm", account: "publish")).attributes.group == AccessGroup("ci"))
        let report = try vault.verify()
        #expect(report.formatVersion == 2 && report.keyEpoch == 1 && report.writeGeneration == 6 && !report.isDamaged)
        // After an unlock on this machine, the device key alone opens the always item.
        let locked = Vault(location: location, keys: .none, host: Vault.selfContainedHost(for: location))
        #expect(try locked.secret("always", "any") == "always_testvector_0005")
        #expect(throws: VaultError.locked(.whenUnlocked, tried: [.deviceKeyNotEnough])) { try locked.secret("github", "ci-bot") }
    }

    /// The committed v3 vector (the team log): every item opens with the passphrase, its log folds to
    /// the two members it holds, and each member's identity opens what its slot gives under the pin.
    @Test func theCommittedV3VectorOpens() throws {
        let dir = try TempDirectory()
        let location = copyVector(3, into: dir)
        let vault = Vault(location: location, credential: Self.passphrase)
        try expectEveryItem(vault)
        let report = try vault.verify()
        #expect(report.formatVersion == 3 && report.keyEpoch == 4 && report.writeGeneration == 8 && !report.isDamaged)
        let members = try vault.members()
        #expect(members.map(\.name) == ["alice", "ci-reader"] && members[0].groups == nil && members[1].groups == [AccessGroup("ci")!])
        let pin = "29a11c789056a5ee569f333e737bf1945aabe0c32e5b078feb76f901b9670324"
        #expect(try vault.trustFingerprint() == pin)
        func member(_ name: String) throws -> Vault {
            let identity = try AgeIdentity.parseAll(SecretBytes(fileBytes(Self.fixtures + "/v3/\(name).identity")), source: name)
            return Vault(
                location: location, keys: .identity(identity), host: Vault.selfContainedHost(for: location),
                configuration: Vault.Configuration(trustedFingerprint: pin))
        }
        #expect(try member("alice").secret("github", "ci-bot") == "ghp_testvector_0001")
        #expect(try member("ci-reader").secret("npm", "publish") == "npm_testvector_0002")
        #expect(throws: VaultError.self) { try member("ci-reader").secret("github", "ci-bot") }
    }

    /// The vector's trust key is sealed without TP in its AAD, as vaults were before 2026-11-25: the
    /// owner's opening accepts it checked by derivation, and the owner's next write seals it with TP.
    @Test func theTrustKeyOfTheV2VectorIsSealedWithTPByTheOwnersNextWrite() throws {
        let dir = try TempDirectory()
        let location = copyVector(2, into: dir)
        func opened() throws -> Snapshot {
            try Snapshot.unlock(fileBytes(location.path), secret: Self.passphrase, deviceKey: nil, path: location.path)
        }
        let before = try opened()
        #expect(before.trustKeySealedWithoutTP)
        try Vault(location: location, credential: Self.passphrase).add("new", "item", "after-the-vector")
        let after = try opened()
        #expect(!after.trustKeySealedWithoutTP)
        #expect(after.file.wrappedTrustKey != before.file.wrappedTrustKey)
        #expect(after.file.trustPublicKey == before.file.trustPublicKey)  // the same trust key: pins stay
        try expectEveryItem(Vault(location: location, credential: Self.passphrase))
    }

    /// A trust key sealed without TP opens only with the TP it derives: the older form proves no
    /// more than it did (a header naming another trust public key is damage, 93).
    @Test func aTrustKeySealedWithoutTPOpensOnlyForItsOwnPublicKey() throws {
        let dir = try TempDirectory()
        let location = copyVector(2, into: dir)
        var vault = WorkingCopy(try Snapshot.unlock(fileBytes(location.path), secret: Self.passphrase, deviceKey: nil, path: location.path))
        vault.trustKey = nil
        vault.file.trustPublicKey = try TrustKey.random().publicKey()
        #expect(throws: VaultError.corrupted(path: location.path, detail: .violates(.trustKeyNotTheHeaders))) {
            try vault.unwrapTrustKey()
        }
    }

    @Test func aWriteOutsideGitConvertsV1AndKeepsTheV1File() throws {
        let dir = try TempDirectory()
        let location = copyVector(1, into: dir)
        let original = fileBytes(location.path)
        let vault = Vault(location: location, credential: Self.passphrase)
        try expectEveryItem(vault)
        #expect(fileBytes(location.path) == original, "reading changed the v1 file")
        #expect(try vault.verify().formatVersion == 1)
        var notices: [VaultNotice] = []
        try vault.reconfigured { $0.onNotice = { notices.append($0) } }.add("new", "item", "added-in-v2")
        let backup = location.path + ".v1.bak"
        #expect(notices.contains(.converted(backup: backup)))
        #expect(fileBytes(backup) == original && FileSystem.mode(backup).map { $0 & 0o777 } == 0o600)
        #expect(try VaultFile.decode(fileBytes(location.path)).file.version == VaultFile.version)
        try expectEveryItem(vault)
        #expect(try vault.secret("new", "item") == "added-in-v2")
        let report = try vault.verify()
        #expect(report.formatVersion == Int(VaultFile.version) && report.keyEpoch == 1 && !report.isDamaged)
        // The backup is intact, and (the same vault, older) it opens only as an accepted rollback.
        let fromBackup = Vault(location: VaultLocation(path: backup), credential: Self.passphrase)
        #expect(throws: VaultError.rolledBack(path: backup, found: 0, expected: 1)) { try fromBackup.secret("github", "ci-bot") }
        #expect(try fromBackup.reconfigured { $0.acceptRollback = true }.secret("github", "ci-bot") == "ghp_testvector_0001")
        // Once this machine has seen the vault in v2, the v1 file put back is a rollback like any other.
        writeBytes(original, to: location.path)
        #expect(throws: VaultError.rolledBack(path: location.path, found: 0, expected: 1)) { try vault.secret("github", "ci-bot") }
    }

    @Test func inAGitWorkTreeOnlyUpgradeConverts() throws {
        let dir = try TempDirectory()
        let location = copyVector(1, into: dir, inGit: true)
        // The vector's device key stays out of the work tree: this clone is another machine.
        let original = fileBytes(location.path)
        let vault = Vault(location: location, credential: Self.passphrase)
        #expect(try vault.secret("github", "ci-bot") == "ghp_testvector_0001")
        #expect(throws: VaultError.upgradeNeeded(path: location.path, byOwner: false, inGitWorkTree: true)) {
            try vault.add("new", "item", "x")
        }
        #expect(fileBytes(location.path) == original)
        let outcome = try vault.upgrade()
        // In a work tree git's history keeps the v1 file: no backup lands in the tree.
        #expect(outcome.fromVersion == 1 && outcome.backup == nil && !FileSystem.exists(location.path + ".v1.bak"))
        #expect(try VaultFile.decode(fileBytes(location.path)).file.version == VaultFile.version)
        try vault.add("new", "item", "x")
        #expect(try vault.secret("new", "item") == "x")
        #expect(try vault.secret("npm", "publish") == "npm_testvector_0002")
        #expect(try vault.upgrade() == UpgradeOutcome(fromVersion: Int(VaultFile.version), backup: nil))
    }

    /// v1 kept the header MAC key and every group's index MAC key under the device key, and a v1
    /// copy lives on in git history: after conversion neither is a key of the v2 file.
    @Test func theV1WriteKeysOpenNothingOfTheConvertedFile() throws {
        let dir = try TempDirectory()
        let location = copyVector(1, into: dir)
        let v1Bytes = fileBytes(location.path)
        let deviceKey = DeviceKey(SecretBytes(fileBytes(Self.fixtures + "/v1/device.key")))
        let v1 = try VaultFile.decode(v1Bytes).file
        let stolenHeaderKey = try AESGCM.open(
            v1.deviceWrappedHeaderMACKey, key: deviceKey.wrapKey(vaultID: v1.vaultID).secret,
            aad: AAD.deviceHeader(vaultID: v1.vaultID))
        let owner = Vault(location: location, credential: Self.passphrase)
        let readWrite = try owner.grant(groups: [AccessGroup("ci")!], readOnly: false, expires: nil)
        try owner.upgrade()
        let bytes = fileBytes(location.path)
        let converted = try VaultFile.decode(bytes)
        let covered = Array(bytes[0..<converted.parametersEnd + VaultFile.digestSize])
        #expect(HMAC.sha256(key: stolenHeaderKey, data: covered) != converted.headerMAC)
        // A read-write credential granted before the conversion holds v1's index MAC key: it reads, and cannot write.
        let scoped = Vault(location: location, keys: .scoped(readWrite), host: Vault.selfContainedHost(for: location))
        #expect(try scoped.secret("npm", "publish") == "npm_testvector_0002")
        #expect(throws: VaultError.credentialPredatesConversion) { try scoped.add("new", "x", "v", group: AccessGroup("ci")!) }
        let regranted = try owner.grant(groups: [AccessGroup("ci")!], readOnly: false, expires: nil)
        try Vault(location: location, keys: .scoped(regranted), host: Vault.selfContainedHost(for: location)).add(
            "new", "x", "v", group: AccessGroup("ci")!)
        #expect(try owner.secret("new", "x") == "v")
    }

    @Test func aScopedCredentialCannotConvertAV1File() throws {
        let dir = try TempDirectory()
        let location = copyVector(1, into: dir)
        let owner = Vault(location: location, credential: Self.passphrase)
        let credential = try owner.grant(groups: [AccessGroup("ci")!], readOnly: false, expires: nil)
        let scoped = Vault(location: location, keys: .scoped(credential), host: Vault.selfContainedHost(for: location))
        #expect(try scoped.secret("npm", "publish") == "npm_testvector_0002")
        #expect(throws: VaultError.upgradeNeeded(path: location.path, byOwner: true)) {
            try scoped.add("new", "item", "x", group: AccessGroup("ci")!)
        }
        #expect(throws: VaultError.ownerOnly(.upgradeFormat)) { try scoped.upgrade() }
    }
}

/// What a machine remembers of a vault's counters only rises, whatever readers and writers race it.
@Suite struct SeenCountersTests {
    @Test func readersRacingAWriterNeverLowerWhatIsRemembered() throws {
        let dir = try TempDirectory()
        let owner = try Vault.makeTest(at: dir.location())
        let ci = AccessGroup("ci")!
        try owner.add("svc", "a", "s", group: ci)
        let vaultID = VaultFile.peekVaultID(fileBytes(dir.location().path))
        let host = Vault.selfContainedHost(for: dir.location())
        let failures = Ledger<String>()
        let location = dir.location()
        DispatchQueue.concurrentPerform(iterations: 5) { worker in
            let vault = Vault(location: location, credential: testKeyFile)
            for _ in 0..<12 {
                do {
                    if worker == 0 { try vault.revoke(group: ci) } else { _ = try vault.secret("svc", "a") }
                } catch {
                    failures.append("worker \(worker): \(error)")
                }
            }
        }
        #expect(failures.entries.isEmpty, "\(failures.entries.prefix(3))")
        let file = try VaultFile.decode(fileBytes(dir.location().path)).file
        var remembered = try SeenCounters.load(vaultID: vaultID, host: host)
        #expect(remembered.writtenCopy == FileSystem.realPath(location.path))
        remembered.writtenCopy = nil
        #expect(remembered == SeenCounters(of: file, groups: Set(file.groups.map(\.groupID))))
    }
}

/// Entries appended from several threads.
final class Ledger<Entry>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Entry] = []
    var entries: [Entry] { lock.withLock { stored } }
    func append(_ entry: Entry) { lock.withLock { stored.append(entry) } }
}
