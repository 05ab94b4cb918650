import Foundation
import Testing
@testable import VaultCore
import VaultCrypto

/// The four findings of the review of format v1 (issue 16), each replayed as
/// it was reproduced, against the documented v2 layout: each of these passed
/// for the attacker on v1.
@Suite struct FormatV2AttackTests {
    let ci = AccessGroup("ci")!
    let passphrase = SecretBytes(Array("old passphrase".utf8))
    let newPassphrase = SecretBytes(Array("new passphrase".utf8))

    /// A passphrase vault (scrypt at the test cost) with an item in `default` and two in `ci`.
    func passphraseVault(_ dir: TempDirectory) throws -> Vault {
        try Vault.create(at: dir.location(), credential: .passphrase(passphrase), kdf: .testing)
        let vault = Vault(location: dir.location(), credential: .passphrase(passphrase))
        try vault.add("github", "ci-bot", "first-secret")
        try vault.add("db", "ci", "ci-secret", group: ci)
        try vault.add("npm", "ci", "npm-secret", group: ci)
        return vault
    }

    /// `currentBytes` with group `groupID`'s entries, records, listing blocks and section taken from
    /// `donor`, the header (and its MAC) kept: what anyone who can write the file can do, with no key.
    func splicing(_ groupID: GroupID, from donor: VaultFile.Decoded, into currentBytes: [UInt8]) throws -> [UInt8] {
        let current = try VaultFile.decode(currentBytes)
        var spliced = current.file
        let keep = current.file.index.indices.filter { current.file.index[$0].groupID != groupID }
        let take = donor.file.index.indices.filter { donor.file.index[$0].groupID == groupID }
        spliced.index = IndexTable(keep.map { current.file.index[$0] } + take.map { donor.file.index[$0] })
        spliced.records = RecordList(keep.map { current.file.records[$0] } + take.map { donor.file.records[$0] })
        spliced.listings = current.file.listings.filter { $0.groupID != groupID } + donor.file.listings.filter { $0.groupID == groupID }
        let slot = try #require(current.file.groups.firstIndex { $0.groupID == groupID })
        spliced.sections[slot] = donor.file.sections[slot]
        let end = current.parametersEnd
        return spliced.encode(
            parameters: Array(currentBytes[0..<end]), checksum: Array(currentBytes[end..<end + 32]), headerMAC: current.headerMAC)
    }

    /// The id of group `ci` in the vault at `location`, read with the passphrase.
    func ciGroupID(_ bytes: [UInt8]) throws -> GroupID {
        try #require(try Snapshot.unlock(bytes, secret: .passphrase(passphrase), deviceKey: nil, path: "").keys.groupID(of: ci))
    }

    /// What a holder of a group's lookup key can do with write access: make the group's read MAC
    /// anew over `vault` as it now is (the bucket digests need no key). Returns the digests and the MAC's context.
    func remakeReadMAC(_ vault: inout WorkingCopy, groupID: GroupID) throws -> (digests: [[UInt8]], context: KeyRing.GroupMACContext) {
        let slot = try #require(vault.file.groups.firstIndex { $0.groupID == groupID })
        let bucketCount = vault.file.sections[slot].bucketDigests.count
        let computed = vault.file.index.bucketDigests([groupID: (bucketCount, nil)])[groupID] ?? [:]
        let digests = (0..<bucketCount).map { computed[$0]! }
        let context = KeyRing.GroupMACContext(
            keyEpoch: vault.file.keyEpoch, writeGeneration: vault.file.writeGeneration,
            groupGeneration: vault.file.sections[slot].generation, writeID: vault.file.writeID)
        vault.file.sections[slot].bucketDigests = digests
        vault.file.sections[slot].readMAC = try vault.keys.groupMAC(
            .read, groupID: groupID, context: context, bucketDigests: digests,
            listings: vault.file.listings)
        return (digests, context)
    }

    /// Every key an old master key gives: the master key itself, the keys it unwraps from an old
    /// header, and everything derived from those.
    func keysOfOldMasterKey(_ oldBytes: [UInt8], secret: UnlockSecret, location: VaultLocation) throws -> [SecretBytes] {
        let old = try Snapshot.unlock(oldBytes, secret: secret, deviceKey: try deviceKey(of: location), path: "old")
        var keys = [try old.masterKey().secret] + old.keys.classKeys.values.map(\.secret)
        for (id, group) in old.keys.groups {
            keys +=
                [group.lookupKey.secret, group.readMACKey(vaultID: old.file.vaultID).secret] + (group.indexMACKey.map { [$0.secret] } ?? [])
            keys += try Accessibility.allCases.map { try old.keys.baseKey(groupID: id, classID: $0.fileID).secret }
            if let groupKey = group.groupKey { keys.append(groupKey.secret) }
        }
        return keys
    }

    /// Finding 1: an old passphrase and an old copy of the file gave the master key, which opened
    /// the current file and every item added later. After `passwd` (which now rotates it) and
    /// after `rekey`, nothing the old copy yields opens the new file or an item added afterwards.
    @Test(arguments: ["passwd", "rekey"])
    func oldPassphraseAndOldCopyOpenNothingAddedAfterwards(change: String) throws {
        let dir = try TempDirectory()
        let vault = try passphraseVault(dir)
        let oldBytes = fileBytes(dir.location().path)
        let current: Vault
        if change == "passwd" {
            #expect(try vault.changePassphrase(to: newPassphrase, kdf: .testing))
            current = Vault(location: dir.location(), credential: .passphrase(newPassphrase))
        } else {
            let outcome = try vault.rekey(kdf: .testing) { plan in Issue.record("nothing to drop, yet asked: \(plan)") }
            #expect(outcome.keyEpoch == 2 && outcome.resealed == 3)
            current = vault
        }
        try current.add("later", "x", "added-after-the-change")
        let newBytes = fileBytes(dir.location().path)
        let oldMasterKey = try Snapshot.unlock(oldBytes, secret: .passphrase(passphrase), deviceKey: nil, path: "old").masterKey()
        #expect(throws: VaultError.corrupted(path: "new", detail: .headerMACMismatch)) {
            try Snapshot.open(newBytes, masterKey: oldMasterKey, deviceKey: nil, path: "new")
        }
        let stolen = try keysOfOldMasterKey(oldBytes, secret: .passphrase(passphrase), location: dir.location())
        let new = try Snapshot.unlock(
            newBytes, secret: .passphrase(change == "passwd" ? newPassphrase : passphrase),
            deviceKey: try deviceKey(of: dir.location()), path: "new")
        let later = try #require(new.file.index.indices.first { (try? new.openAttributes(at: $0))?.service == "later" })
        let entry = new.file.index[later]
        let aad = AAD.record(vaultID: new.file.vaultID, recordID: entry.recordID, groupID: entry.groupID, classID: entry.classID)
        for key in stolen {
            for candidate in [key, KeyRing.derive(key, .record, entry.recordID, vaultID: new.file.vaultID)] {
                #expect(throws: CryptoError.authenticationFailed) { try AESGCM.open(new.file.records[later], key: candidate, aad: aad) }
            }
        }
        #expect(try current.secret("later", "x") == "added-after-the-change")
        #expect(try current.secret("github", "ci-bot") == "first-secret")
    }

    /// Finding 2, first half: restoring a pre-revoke copy made a revoked credential work again,
    /// and verify said intact. Now the copy's lower key epoch is refused (49), unless the
    /// restore is accepted on purpose, which this machine then remembers.
    @Test func aRestoredPreRevokeCopyIsRefusedUnlessAccepted() throws {
        let dir = try TempDirectory()
        let owner = try passphraseVault(dir)
        let credential = try owner.grant(groups: [ci], readOnly: true, expires: nil)
        let beforeRevoke = fileBytes(dir.location().path)
        try owner.revoke(group: ci)
        writeBytes(beforeRevoke, to: dir.location().path)
        let scoped = Vault(location: dir.location(), keys: .scoped(credential), host: Vault.selfContainedHost(for: dir.location()))
        #expect(throws: VaultError.rolledBack(path: dir.location().path, found: 1, expected: 2)) { try scoped.secret("db", "ci") }
        #expect(throws: VaultError.rolledBack(path: dir.location().path, found: 1, expected: 2)) { try owner.verify() }
        #expect(VaultError.rolledBack(path: "", found: 1, expected: 2).status.exitCode == 49)
        #expect(try owner.reconfigured { $0.acceptRollback = true }.secret("db", "ci") == "ci-secret")
        #expect(try owner.secret("db", "ci") == "ci-secret")
    }

    /// A fresh machine remembers nothing: the minimum epoch it is given refuses the same copy.
    @Test func aPinnedMinimumEpochRefusesAnOldCopyOnAFreshMachine() throws {
        let dir = try TempDirectory()
        let owner = try passphraseVault(dir)
        let beforeRevoke = fileBytes(dir.location().path)
        try owner.revoke(group: ci)
        writeBytes(beforeRevoke, to: dir.location().path)
        var fresh = Vault.selfContainedHost(for: dir.location())
        fresh.stateDirectory = dir.path + "/fresh-machine-state"
        let runner = Vault(location: dir.location(), keys: .credential(.passphrase(passphrase)), host: fresh)
        #expect(try runner.secret("db", "ci") == "ci-secret")
        let floored = runner.reconfigured { $0.minimumEpoch = 2 }
        #expect(throws: VaultError.rolledBack(path: dir.location().path, found: 1, expected: 2)) { try floored.secret("db", "ci") }
    }

    /// Finding 2, second half: one group's section spliced from an old copy, with no key at all,
    /// brought a deleted item back. Now the section's MACs are bound to the header's counters:
    /// the spliced group is refused as damaged, and the other group still reads.
    @Test func aGroupSectionSplicedFromAnOldCopyIsRefused() throws {
        let dir = try TempDirectory()
        let owner = try passphraseVault(dir)
        let old = try VaultFile.decode(fileBytes(dir.location().path))
        try owner.delete(matching: Query(service: "npm", account: "ci"))
        let currentBytes = fileBytes(dir.location().path)
        // The attacker keeps the current header (and its MAC) and takes group ci from the old copy.
        writeBytes(try splicing(try ciGroupID(currentBytes), from: old, into: currentBytes), to: dir.location().path)
        #expect(throws: VaultError.damagedGroup(path: dir.location().path, group: ci)) { try owner.secret("npm", "ci") }
        #expect(try owner.secret("github", "ci-bot") == "first-secret")
        let report = try owner.verify()
        #expect(report.isDamaged && report.damagedGroups == ["ci"])
    }

    /// Two clones written once each from one base have equal counters. Group ci's section, entries,
    /// records and listing blocks taken from the sibling that did not rotate npm, into the file that
    /// did, with no key at all, undid the rotation while every MAC held. Each write of the owner or a
    /// full member has a write id of its own in every group MAC: the spliced group is refused.
    @Test func aGroupSectionOfASiblingWriteAtEqualCountersIsRefused() throws {
        let dir = try TempDirectory(), siblingDir = try TempDirectory()
        let owner = try passphraseVault(dir)
        writeBytes(fileBytes(dir.location().path), to: siblingDir.location().path)
        let sibling = Vault(
            location: siblingDir.location(), keys: .credential(.passphrase(passphrase)),
            host: Vault.selfContainedHost(for: siblingDir.location()))
        try owner.update(matching: Query(service: "npm", account: "ci"), with: ItemChange(secret: SecretBytes(Array("rotated".utf8))))
        try sibling.update(matching: Query(service: "github", account: "ci-bot"), with: ItemChange(secret: SecretBytes(Array("b".utf8))))
        let currentBytes = fileBytes(dir.location().path)
        let current = try VaultFile.decode(currentBytes), other = try VaultFile.decode(fileBytes(siblingDir.location().path))
        #expect(current.file.writeGeneration == other.file.writeGeneration && current.file.keyEpoch == other.file.keyEpoch)
        let ciID = try ciGroupID(currentBytes)
        let slot = try #require(current.file.groups.firstIndex { $0.groupID == ciID })
        #expect(current.file.sections[slot].generation == other.file.sections[slot].generation)
        writeBytes(try splicing(ciID, from: other, into: currentBytes), to: dir.location().path)
        #expect(throws: VaultError.damagedGroup(path: dir.location().path, group: ci)) { try owner.secret("npm", "ci") }
        #expect(try owner.verify().damagedGroups == ["ci"])
    }

    /// Finding 3: the device key alone held the header and index MAC keys, so its holder could
    /// drop an item and re-MAC the file, and verify said intact. Now the device grants hold only
    /// the read MAC key: with everything they hold, the owner still sees the change.
    @Test func theDeviceKeyAloneCannotMakeTheOwnerAcceptAChangedIndex() throws {
        let dir = try TempDirectory()
        let owner = try passphraseVault(dir)
        try owner.add("cron", "job", "always-secret", group: ci, accessibility: .always)
        let bytes = fileBytes(dir.location().path)
        let key = try #require(try deviceKey(of: dir.location()))
        let grants = try #require(
            DeviceGrants.read(
                vaultID: VaultFile.peekVaultID(bytes), deviceKey: key,
                host: Vault.selfContainedHost(for: dir.location())))
        #expect(grants.allSatisfy { $0.indexMACKey == nil })
        // The thief drops ci's npm item and re-MACs the group with every key the device key opens.
        var thief = WorkingCopy(try Snapshot.openPartial(bytes, deviceKey: key, grants: grants, path: "thief"))
        #expect(thief.keys.headerMACKey == nil)
        let npm = try #require(grants.first { $0.group == ci }?.groupID)
        let dropped = try #require(
            thief.file.index.indices.first {
                thief.file.index[$0].groupID == npm && thief.file.index[$0].classID != Accessibility.always.fileID
            })
        thief.remove(at: [dropped])
        let (digests, context) = try remakeReadMAC(&thief, groupID: npm)
        #expect(throws: KeyRingError.self) {
            try thief.keys.groupMAC(.index, groupID: npm, context: context, bucketDigests: digests, listings: thief.file.listings)
        }
        let parameters = thief.file.encodeHeaderParameters()
        let forged = thief.file.encode(
            parameters: parameters, checksum: SHA256.hash(parameters),
            headerMAC: try VaultFile.decode(bytes).headerMAC)
        writeBytes(forged, to: dir.location().path)
        // Another reader with the device key alone is fooled (it holds the same keys as the thief) ...
        #expect(
            try Vault(location: dir.location(), keys: .none, host: Vault.selfContainedHost(for: dir.location())).secret("cron", "job")
                == "always-secret")
        // ... the owner is not.
        #expect(throws: VaultError.damagedGroup(path: dir.location().path, group: ci)) { try owner.secret("cron", "job") }
        #expect(try owner.verify().damagedGroups == ["ci"])
        #expect(try owner.secret("github", "ci-bot") == "first-secret")
    }

    /// The after-first-unlock cache holds no header or index MAC key either.
    @Test func theAfterFirstUnlockCacheHoldsNoWriteKey() throws {
        let dir = try TempDirectory()
        var host = Vault.selfContainedHost(for: dir.location())
        host.bootID = { "boot-1" }
        try Vault.create(at: dir.location(), credential: testKeyFile, kdf: .testing, host: host)
        let owner = Vault(location: dir.location(), keys: .credential(testKeyFile), host: host)
        try owner.add("daemon", "x", "afu-secret", group: ci, accessibility: .afterFirstUnlock)
        let vaultID = VaultFile.peekVaultID(fileBytes(dir.location().path))
        let cache = try #require(
            AfterFirstUnlockCache.read(vaultID: vaultID, deviceKey: try deviceKey(of: dir.location(), host: host), host: host))
        #expect(!cache.isEmpty && cache.allSatisfy { $0.indexMACKey == nil })
        #expect(try Vault(location: dir.location(), keys: .none, host: host).secret("daemon", "x") == "afu-secret")
    }

    /// Finding 4: a read-only credential's flag was covered by an unkeyed checksum: flipped and
    /// re-summed, the credential wrote (and its stale MAC then broke the owner's list of every
    /// group). Now writing needs the groups' write keys, which a read-only credential never held.
    @Test func aReadOnlyCredentialWithAForgedFlagCannotWrite() throws {
        let dir = try TempDirectory()
        let owner = try passphraseVault(dir)
        let text = try owner.grant(groups: [ci], readOnly: true, expires: nil).encoded()
        var payload = try #require(
            Base64.decode(String(text.dropFirst(ScopedCredential.textPrefix.count)).trimmingCharacters(in: .whitespacesAndNewlines)))
        payload.removeLast(ScopedCredential.checksumSize)
        let flagOffset = ScopedCredential.magic.count + 1 + VaultFile.idSize
        #expect(payload[flagOffset] == 1)
        payload[flagOffset] = 0
        payload += SHA256.hash(payload).prefix(ScopedCredential.checksumSize)
        let forged = try ScopedCredential.decode(ScopedCredential.textPrefix + Base64.encode(payload), source: "forged")
        #expect(!forged.readOnly && !forged.canWrite)
        let before = fileBytes(dir.location().path)
        let attacker = Vault(location: dir.location(), keys: .scoped(forged), host: Vault.selfContainedHost(for: dir.location()))
        #expect(try attacker.secret("db", "ci") == "ci-secret")
        #expect(throws: VaultError.readOnlyCredential) { try attacker.add("evil", "x", "v", group: ci) }
        #expect(throws: VaultError.readOnlyCredential) { try attacker.delete(matching: Query(service: "db", account: "ci")) }
        // Below the policy check: the keys it holds cannot encode a file.
        var open = WorkingCopy(try Snapshot.open(before, credential: forged, deviceKey: nil, path: ""))
        #expect(!open.isWritable)
        #expect(throws: VaultError.locked(nil)) { try open.encode() }
        #expect(fileBytes(dir.location().path) == before)
        #expect(try owner.listing(matching: Query()).items.count == 3)
    }

    /// A damaged group takes down only itself: the owner lists the others and is told which one
    /// is damaged; `verify` names it, and quarantine sets it aside so the vault can be written again.
    @Test func aDamagedGroupLeavesTheOthersReadableAndCanBeQuarantined() throws {
        let dir = try TempDirectory()
        let owner = try passphraseVault(dir)
        var bytes = fileBytes(dir.location().path)
        let decoded = try VaultFile.decode(bytes)
        let ciID = try ciGroupID(bytes)
        let slot = try #require(decoded.file.groups.firstIndex { $0.groupID == ciID })
        bytes[indexMACStart(decoded, slot: slot)] ^= 0x01
        writeBytes(bytes, to: dir.location().path)
        let listing = try owner.listing(matching: Query())
        #expect(listing.items.map(\.service) == ["github"] && listing.damagedGroups == [ci])
        #expect(try owner.secret("github", "ci-bot") == "first-secret")
        #expect(throws: VaultError.damagedGroup(path: dir.location().path, group: ci)) { try owner.secret("db", "ci") }
        #expect(throws: VaultError.damagedGroup(path: dir.location().path, group: ci)) { try owner.add("new", "x", "v") }
        #expect(fileBytes(dir.location().path) == bytes)
        let (groups, kept) = try owner.quarantineDamagedGroups()
        #expect(groups == ["ci"] && kept.map { fileBytes($0) == bytes } == true)
        try owner.add("new", "x", "v")
        #expect(try !owner.verify().isDamaged)
        #expect(try owner.listing(matching: Query()).items.map(\.service).sorted() == ["github", "new"])
    }

    /// A rekey also replaces this machine's device key: the old key, with the grants sealed under
    /// it, opens none of the always or device-bound items of the re-keyed file.
    @Test func aStolenDeviceKeyOpensNothingAfterARekey() throws {
        let dir = try TempDirectory()
        let owner = try passphraseVault(dir)
        try owner.add("cron", "job", "always-secret", accessibility: .always)
        try owner.add("disk", "job", "bound-secret", accessibility: .whenUnlockedThisDeviceOnly)
        let host = Vault.selfContainedHost(for: dir.location())
        let vaultID = VaultFile.peekVaultID(fileBytes(dir.location().path))
        let stolenKey = try #require(try deviceKey(of: dir.location()))
        let stolenGrants = try #require(DeviceGrants.read(vaultID: vaultID, deviceKey: stolenKey, host: host))
        try owner.rekey(kdf: .testing) { _ in }
        #expect(try #require(try deviceKey(of: dir.location())).secret.copyBytes() != stolenKey.secret.copyBytes())
        let thief = try Snapshot.openPartial(fileBytes(dir.location().path), deviceKey: stolenKey, grants: stolenGrants, path: "thief")
        #expect(thief.keys.groups.isEmpty && !thief.deviceMatches)
        for position in thief.file.index.indices { #expect(throws: VaultError.self) { try thief.openRecord(at: position) } }
        // The owner's machine moved to the new key: both items open, the always one without an unlock.
        #expect(try owner.secret("disk", "job") == "bound-secret")
        #expect(try Vault(location: dir.location(), keys: .none, host: host).secret("cron", "job") == "always-secret")
    }

    /// Re-keying with a key file keeps no passphrase keyslot: the when-passcode-set items it would
    /// destroy are in the plan shown before anything changes, and a refusal changes nothing.
    @Test func aRekeyThatDropsThePassphraseListsWhatItDestroys() throws {
        let dir = try TempDirectory()
        let owner = try passphraseVault(dir)
        try owner.add("pin", "x", "needs-a-passphrase", accessibility: .whenPasscodeSetThisDeviceOnly)
        try owner.addKeyFile(testKeyFile.secret)
        let withKeyFile = Vault(location: dir.location(), credential: testKeyFile)
        let before = fileBytes(dir.location().path)
        struct Refused: Error {}
        var shown: RekeyPlan?
        #expect(throws: Refused.self) {
            try withKeyFile.rekey(kdf: .testing) { plan in
                shown = plan; throw Refused()
            }
        }
        #expect(shown == RekeyPlan(droppedKeyslots: [.passphrase], itemsBoundElsewhere: [], itemsNeedingPassphrase: 1))
        #expect(fileBytes(dir.location().path) == before)
        let outcome = try withKeyFile.rekey(kdf: .testing) { _ in }
        #expect(outcome.resealed == 3)
        #expect(throws: VaultError.itemNotFound(Query(service: "pin", account: "x"))) { try withKeyFile.secret("pin", "x") }
        #expect(throws: VaultError.noKeyslot(.passphrase)) { try owner.secret("github", "ci-bot") }
    }

    /// A damaged read MAC does not stop the writer, whose own reads never use it, but verify names
    /// it (readers without the write key refuse the group), and the writer's next change makes it again.
    @Test func aDamagedReadMACIsNamedByVerifyAndRemadeByTheNextWrite() throws {
        let dir = try TempDirectory()
        let owner = try passphraseVault(dir)
        let reader = try owner.grant(groups: [ci], readOnly: true, expires: nil)
        var bytes = fileBytes(dir.location().path)
        let decoded = try VaultFile.decode(bytes)
        let slot = try #require(decoded.file.groups.firstIndex { $0.groupID == (try? ciGroupID(bytes)) })
        bytes[indexMACStart(decoded, slot: slot) + 32] ^= 0x01
        writeBytes(bytes, to: dir.location().path)
        #expect(try owner.secret("db", "ci") == "ci-secret")
        let report = try owner.verify()
        #expect(report.isDamaged && report.groupsFailingTheirReadMAC == ["ci"] && report.damagedGroups.isEmpty)
        let scoped = Vault(location: dir.location(), keys: .scoped(reader), host: Vault.selfContainedHost(for: dir.location()))
        #expect(throws: VaultError.damagedGroup(path: dir.location().path, group: ci)) { try scoped.secret("db", "ci", group: ci) }
        try owner.add("later", "x", "v")
        #expect(try !owner.verify().isDamaged)
        #expect(try scoped.secret("db", "ci", group: ci) == "ci-secret")
    }

    /// A reader of group ci (read-only credential) with write access raises the header's key epoch
    /// and re-makes ci's read MAC: a key epoch that is not the team log's head's is damage (93) before
    /// any key is tried, never a fall back to the read-MAC trust of what opens without an unlock,
    /// which the forger's keys satisfy. (A re-key the log records reads as an ended session, 36:
    /// `aSessionFromBeforeARekeyHasEnded` below.)
    @Test func aForgedEpochDoesNotDowngradeASessionToReadMACTrust() throws {
        let dir = try TempDirectory()
        let owner = try passphraseVault(dir)
        try owner.add("cron", "job", "always-secret", group: ci, accessibility: .always)
        let reader = try owner.grant(groups: [ci], readOnly: true, expires: nil)
        let token = try owner.startSession()
        let bytes = fileBytes(dir.location().path)
        var forged = WorkingCopy(try Snapshot.open(bytes, credential: reader, deviceKey: nil, path: "forger"))
        forged.file.keyEpoch += 1
        let ciID = try ciGroupID(bytes)
        _ = try remakeReadMAC(&forged, groupID: ciID)
        let parameters = forged.file.encodeHeaderParameters()
        writeBytes(
            forged.file.encode(parameters: parameters, checksum: SHA256.hash(parameters), headerMAC: try VaultFile.decode(bytes).headerMAC),
            to: dir.location().path)
        let session = Vault(location: dir.location(), keys: .session(token), host: Vault.selfContainedHost(for: dir.location()))
        #expect(throws: VaultError.corrupted(path: dir.location().path, detail: .violates(.keyEpochNotTheLogs))) {
            try session.secret("cron", "job")
        }
    }

    /// A session started before a rekey reads as ended (36), never as damage (93).
    @Test func aSessionFromBeforeARekeyHasEnded() throws {
        let dir = try TempDirectory()
        let owner = try passphraseVault(dir)
        let token = try owner.startSession()
        let host = Vault.selfContainedHost(for: dir.location())
        // A copy of the session file, as another machine or a backup would keep it.
        let runtime = host.runtimeDirectory
        let sessionFile = try #require(FileSystem.list(runtime).first { $0.hasSuffix(".session") })
        let saved = fileBytes(runtime + "/" + sessionFile)
        try owner.rekey(kdf: .testing) { _ in }
        writeBytes(saved, to: runtime + "/" + sessionFile)
        let stale = Vault(location: dir.location(), keys: .session(token), host: host)
        #expect(throws: VaultError.sessionEnded(.rekeyed)) { try stale.secret("db", "ci") }
        #expect(VaultError.sessionEnded(.rekeyed).status.exitCode == 36)
    }
}
