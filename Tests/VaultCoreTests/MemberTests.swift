import Foundation
import Testing
@testable import VaultCore
import VaultCrypto

#if canImport(Glibc)
import Glibc
#endif

/// Members: public-key keyslots sealed to age recipients (docs/FORMAT.md, "Member slots").
@Suite struct MemberTests {
    let ci = AccessGroup("ci")!
    let prod = AccessGroup("prod")!

    /// A vault with one item in `ci` and one in `prod`, a full member and a read-only member of `ci`.
    func makeVault(_ dir: TempDirectory) throws -> (owner: Vault, full: AgeIdentity, runner: AgeIdentity) {
        let owner = try Vault.makeTest(at: dir.location())
        try owner.add("db", "ci", "ci-secret", group: ci)
        try owner.add("db", "prod", "prod-secret", group: prod)
        let full = try AgeIdentity.generate(), runner = try AgeIdentity.generate()
        try owner.addMember(name: "alice", recipient: full.recipient, groups: [], readOnly: false)
        try owner.addMember(name: "ci-runner", recipient: runner.recipient, groups: [ci], readOnly: true)
        return (owner, full, runner)
    }

    /// A member's view of the vault, pinned (as a member must be) to the trust fingerprint the
    /// owner's keys give now; a re-key changes it, and a member made before then is refused.
    func member(_ location: VaultLocation, _ identity: AgeIdentity, pinned: String? = nil) -> Vault {
        Vault(
            location: location, keys: .identity([identity]), host: Vault.selfContainedHost(for: location),
            configuration: Vault.Configuration(
                trustedFingerprint: pinned ?? (try? Vault(location: location, credential: testKeyFile).trustFingerprint())))
    }

    /// The byte range of the member slots (count byte included) in a v2 file's header.
    func memberRange(_ bytes: [UInt8]) throws -> Range<Int> {
        let file = try VaultFile.decode(bytes).file
        let start = 8 + 2 + 16 + 8 + 8 + 16 + 16 + 1 + 102 * file.keyslots.count
        var w = ByteWriter()
        w.u8(UInt8(file.members.count))
        for slot in file.members { slot.encode(into: &w) }
        return start..<start + w.bytes.count
    }

    /// `bytes` with the header checksum made again over the header as it now is: what anyone can do.
    func rechecksummed(_ bytes: [UInt8]) throws -> [UInt8] {
        var copy = bytes
        // The header parses up to the checksum whatever a sealed part holds, as long as lengths are kept.
        var r = ByteReader(copy)
        _ = try r.raw(8 + 2 + 16 + 8 + 8 + 16 + 16)
        let slots = Int(try r.u8())
        _ = try r.raw(102 * slots)
        for _ in 0..<Int(try r.u8()) { _ = try MemberSlot.decode(from: &r) }
        _ = try TeamLog.decode(from: &r, vaultID: Array(copy[10..<26]))
        _ = try r.raw(Ed25519.keySize + VaultFile.wrappedKeySize)  // the signing key, public and wrapped
        // The trust key, public and wrapped, and its statement.
        _ = try r.raw(Ed25519.keySize + VaultFile.wrappedKeySize + Ed25519.signatureSize)
        for _ in 0..<Int(try r.u8()) { _ = try r.raw(1 + VaultFile.wrappedKeySize) }
        for _ in 0..<Int(try r.u32()) { _ = try WrappedGroupKey.decode(from: &r, version: 2) }
        let end = r.offset
        copy.replaceSubrange(end..<end + 32, with: SHA256.hash(Array(copy[0..<end])))
        return copy
    }

    @Test func slotRoundTripsThroughTheFile() throws {
        let dir = try TempDirectory()
        let (owner, full, runner) = try makeVault(dir)
        let bytes = fileBytes(dir.location().path)
        let decoded = try VaultFile.decode(bytes).file
        #expect(decoded.members.count == 2)
        var w = ByteWriter()
        for slot in decoded.members { slot.encode(into: &w) }
        var r = ByteReader(w.bytes)
        #expect(try [MemberSlot.decode(from: &r), MemberSlot.decode(from: &r)] == decoded.members && r.isAtEnd)
        #expect(decoded.encodeHeaderParameters() == Array(bytes[0..<(try VaultFile.decode(bytes).parametersEnd)]))
        let opened = try #require(try decoded.members[0].open(with: full, vaultID: decoded.vaultID))
        #expect(opened.name == "alice")
        #expect(try decoded.members[0].open(with: runner, vaultID: decoded.vaultID) == nil)
        let list = try owner.members()
        #expect(list.map(\.name) == ["alice", "ci-runner"])
        #expect(list[0].groups == nil && list[1].groups == [ci] && list[1].readOnly)
        #expect(list[1].recipient == runner.recipient.description)
        // Names and recipients are sealed: neither is in the file.
        for text in ["alice", "ci-runner", runner.recipient.description] {
            #expect(bytes.firstRange(of: Array(text.utf8)) == nil, "\(text)")
        }
    }

    @Test func fullMemberOpensAsTheOwnerAndScopedMemberItsGroupsOnly() throws {
        let dir = try TempDirectory()
        let (_, full, runner) = try makeVault(dir)
        let alice = member(dir.location(), full)
        #expect(try alice.secret("db", "prod") == "prod-secret")
        try alice.add("new", "item", "by-alice", group: prod)
        let ci = member(dir.location(), runner)
        #expect(try ci.secret("db", "ci") == "ci-secret")
        #expect(throws: VaultError.outsideMember(name: "ci-runner", group: prod, covered: [self.ci])) {
            try ci.secret("db", "prod", group: prod)
        }
        let before = fileBytes(dir.location().path)
        #expect(throws: VaultError.readOnlyMember("ci-runner")) { try ci.add("x", "y", "z", group: self.ci) }
        #expect(throws: VaultError.scopedMemberCannot(name: "ci-runner", action: .addMembers)) {
            try ci.addMember(name: "other", recipient: try AgeIdentity.generate().recipient, groups: [], readOnly: false)
        }
        // Not even a full member changes the owner's keyslots.
        #expect(throws: VaultError.identityCannot(.changeKeyslots)) {
            try alice.changePassphrase(to: SecretBytes(Array("taken over".utf8)), kdf: .testing)
        }
        #expect(throws: VaultError.identityCannot(.changeKeyslots)) { try alice.addKeyFile(testKeyFile.secret) }
        #expect(fileBytes(dir.location().path) == before)
    }

    @Test func aReadWriteMemberWritesItsGroup() throws {
        let dir = try TempDirectory()
        let owner = try Vault.makeTest(at: dir.location())
        try owner.add("db", "ci", "ci-secret", group: ci)
        let writer = try AgeIdentity.generate()
        try owner.addMember(name: "deployer", recipient: writer.recipient, groups: [ci], readOnly: false)
        try member(dir.location(), writer).add("db", "new", "written", group: ci)
        #expect(try owner.secret("db", "new") == "written")
    }

    @Test func anotherIdentityOpensNothing() throws {
        let dir = try TempDirectory()
        _ = try makeVault(dir)
        let stranger = try AgeIdentity.generate()
        #expect(throws: VaultError.noMemberSlot(recipients: [stranger.recipient.description])) {
            try member(dir.location(), stranger).secret("db", "ci")
        }
        #expect(VaultError.noMemberSlot(recipients: []).status.exitCode == 51)
    }

    @Test func badInputsChangeNothing() throws {
        let dir = try TempDirectory()
        let (owner, full, _) = try makeVault(dir)
        let before = fileBytes(dir.location().path)
        let fresh = try AgeIdentity.generate().recipient
        #expect(throws: VaultError.self) { try owner.addMember(name: "alice", recipient: fresh, groups: [], readOnly: false) }
        #expect(throws: VaultError.self) { try owner.addMember(name: "bob", recipient: full.recipient, groups: [], readOnly: false) }
        #expect(throws: VaultError.self) { try owner.addMember(name: "bad name!", recipient: fresh, groups: [], readOnly: false) }
        #expect(throws: VaultError.self) { try owner.addMember(name: "bob", recipient: fresh, groups: [], readOnly: true) }
        #expect(throws: VaultError.noSuchGroup(AccessGroup("nope")!)) {
            try owner.addMember(name: "bob", recipient: fresh, groups: [AccessGroup("nope")!], readOnly: false)
        }
        // A low-order public key: X25519 gives all zeros, which OpenSSL refuses; nothing is sealed to it.
        #expect(throws: VaultError.self) {
            try owner.addMember(
                name: "bob", recipient: AgeRecipient(publicKey: [UInt8](repeating: 0, count: 32)), groups: [], readOnly: false)
        }
        #expect(throws: VaultError.noSuchMember("bob")) { try owner.removeMember(named: "bob", kdf: .testing) { _ in } }
        // Removing raises the key epoch, which only the owner's trust key vouches for: no member removes.
        #expect(throws: VaultError.trustKeyNeeded(.removeMembers)) {
            try member(dir.location(), full).removeMember(named: "alice", kdf: .testing) { _ in }
        }
        #expect(fileBytes(dir.location().path) == before)
    }

    /// Every byte of the member slots changed, with the header checksum made again to fit: the
    /// owner and the full member see damage (the header MAC), a slot that no longer opens is "no
    /// slot", and what still opens reads the right secret, never another; a member pinned to the
    /// vault's trust fingerprint refuses every such file (the header signature).
    @Test func everyTamperedMemberByteIsDamageOrNoSlotNeverWrongKeys() throws {
        let dir = try TempDirectory()
        let (owner, full, runner) = try makeVault(dir)
        let pinned = try owner.trustFingerprint()
        let bytes = fileBytes(dir.location().path)
        let copy = dir.location("copy.vault")
        let range = try memberRange(bytes)
        #expect(range.count > 500)
        var outcomes: [String: Int] = [:]
        for offset in range.dropFirst() {
            var tampered = bytes
            tampered[offset] ^= 0x01
            guard let fixed = try? rechecksummed(tampered) else {
                outcomes["unparsable", default: 0] += 1
                continue
            }
            writeBytes(fixed, to: copy.path)
            #expect(throws: VaultError.self) { try Vault(location: copy, credential: testKeyFile).secret("db", "ci") }
            for (identity, service) in [(full, "prod"), (runner, "ci")] {
                // The slots alone (no signature checked): damage, no slot, or the right keys, never wrong ones.
                do {
                    let open = try Snapshot.open(FileBytes(fixed), identities: [identity], deviceKey: nil, path: copy.path)
                    let position = try #require(try open.positions(matching: Query(service: "db", account: service)).first)
                    #expect(try open.openRecord(at: position).secret.text == "\(service)-secret", "offset \(offset)")
                    // The full member checks the header MAC, which covers every member byte.
                    #expect(service == "ci", "offset \(offset): the full member read a tampered file")
                    outcomes["read", default: 0] += 1
                } catch let error as VaultError {
                    switch error {
                    case .snapshot(.corrupted): outcomes["93", default: 0] += 1
                    case .unlock(.noMemberSlot): outcomes["51", default: 0] += 1
                    default: Issue.record("offset \(offset): \(error)")
                    }
                }
                // A member pinned to the vault's trust fingerprint reads nothing of a changed header.
                #expect(throws: VaultError.untrustedVault(path: copy.path, pinned: pinned)) {
                    try member(copy, identity, pinned: pinned).secret("db", service, group: service == "ci" ? ci : prod)
                }
            }
        }
        #expect(outcomes["93", default: 0] > 0 && outcomes["51", default: 0] > 0 && outcomes["read", default: 0] > 0, "\(outcomes)")
    }

    /// docs/FORMAT.md's "Member slots" means what vault writes: a reader written from that page
    /// alone (Tests/FormatReader/member_slot.py, Python's `cryptography`) opens the same keys.
    @Test func anIndependentReaderOpensTheSlotsAsThePageSays() throws {
        let dir = try TempDirectory()
        let (_, full, runner) = try makeVault(dir)
        let path = dir.location().path
        let file = try VaultFile.decode(fileBytes(path)).file
        func run(_ identity: AgeIdentity) throws -> (status: Int32, object: [String: Any]?, stderr: String) {
            let identityPath = dir.path + "/identity-\(identity.recipient)"
            if !FileManager.default.fileExists(atPath: identityPath) {
                writeBytes(IdentityFile.contents(of: identity, created: "test").copyBytes(), to: identityPath)
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = [TestVectorTests.packageRoot + "/Tests/FormatReader/member_slot.py", path, identityPath]
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let stdout = out.fileHandleForReading.readDataToEndOfFile()
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, try? JSONSerialization.jsonObject(with: stdout) as? [String: Any], stderr)
        }
        func hex(_ key: (some TypedKey)?) -> String? { key.map { $0.secret.copyBytes().map { String(format: "%02x", $0) }.joined() } }

        let alice = try run(full)
        #expect(alice.status == 0, "\(alice.stderr)")
        guard case .full(let fullKeys) = try Snapshot.openMemberSlot(file, identities: [full], path: "").keys else {
            Issue.record("alice is a full member")
            return
        }
        #expect(alice.object?["name"] as? String == "alice" && alice.object?["kind"] as? String == "full")
        #expect(alice.object?["header_mac_key"] as? String == hex(fullKeys.headerMACKey))
        #expect(alice.object?["wrap_key"] as? String == hex(fullKeys.wrapKey))
        #expect(alice.object?["trust_fingerprint"] as? String == file.trustPublicKey.fingerprint)

        let ci = try run(runner)
        #expect(ci.status == 0, "\(ci.stderr)")
        guard case .scoped(true, let grants) = try Snapshot.openMemberSlot(file, identities: [runner], path: "").keys else {
            Issue.record("ci-runner is a read-only scoped member")
            return
        }
        let groups = try #require(ci.object?["groups"] as? [[String: Any]])
        #expect(ci.object?["name"] as? String == "ci-runner" && ci.object?["read_only"] as? Bool == true && groups.count == 1)
        #expect(groups.first?["id"] as? Int == Int(grants[0].groupID.rawValue) && groups.first?["name"] as? String == "ci")
        #expect(groups.first?["lookup_key"] as? String == hex(grants[0].lookupKey))
        #expect(groups.first?["index_mac_key"] is NSNull)
        let classes = try #require(groups.first?["classes"] as? [String: String])
        #expect(classes.count == Accessibility.allCases.count)
        for (classID, key) in grants[0].baseKeys { #expect(classes[String(classID.rawValue)] == hex(key)) }

        let stranger = try run(try AgeIdentity.generate())
        #expect(stranger.status == 1 && stranger.stderr.contains("no member slot opens"), "\(stranger.stderr)")
    }

    /// A slot is bound to its vault: moved into another vault's header (the same member in both), it opens nothing there.
    @Test func aSlotMovedToAnotherVaultOpensNothing() throws {
        let dirA = try TempDirectory(), dirB = try TempDirectory()
        let identity = try AgeIdentity.generate()
        for dir in [dirA, dirB] {
            let owner = try Vault.makeTest(at: dir.location())
            try owner.add("db", "ci", dir === dirA ? "a-secret" : "b-secret")
            try owner.addMember(name: "alice", recipient: identity.recipient, groups: [], readOnly: false)
        }
        let slotA = try VaultFile.decode(fileBytes(dirA.location().path)).file.members[0]
        let fileB = try VaultFile.decode(fileBytes(dirB.location().path)).file
        #expect(try slotA.open(with: identity, vaultID: fileB.vaultID) == nil)
        var bytesB = fileBytes(dirB.location().path)
        let range = try memberRange(bytesB)
        var w = ByteWriter()
        w.u8(1)
        slotA.encode(into: &w)
        bytesB.replaceSubrange(range, with: w.bytes)
        let moved = try rechecksummed(bytesB)
        #expect(throws: VaultError.noMemberSlot(recipients: [identity.recipient.description])) {
            try Snapshot.open(FileBytes(moved), identities: [identity], deviceKey: nil, path: "b")
        }
    }

    @Test func aLowOrderEphemeralShareIsDamage() throws {
        let dir = try TempDirectory()
        let owner = try Vault.makeTest(at: dir.location())
        let runner = try AgeIdentity.generate()
        try owner.addMember(name: "ci-runner", recipient: runner.recipient, groups: [], readOnly: false)
        var bytes = fileBytes(dir.location().path)
        let range = try memberRange(bytes)
        // The share follows the count byte; u = 0 is of low order: X25519 gives all zeros, which OpenSSL refuses.
        bytes.replaceSubrange(range.lowerBound + 1..<range.lowerBound + 33, with: [UInt8](repeating: 0, count: 32))
        let tampered = try rechecksummed(bytes)
        #expect {
            try Snapshot.open(FileBytes(tampered), identities: [runner], deviceKey: nil, path: "test")
        } throws: { error in
            guard case VaultError.snapshot(.corrupted(_, let detail)) = error else { return false }
            return detail == .violates(.lowOrderEphemeralShare)
        }
    }

    /// Every change that replaces the master key, a group key or a class key seals the member slots again.
    @Test(arguments: [
        "rekey", "revoke", "passwd", "remove passphrase", "delete group", "revoke another group",
        "wipe a group", "quarantine", "move off an exposed device key"
    ])
    func memberSlotsFollowEveryKeyChange(change: String) throws {
        let dir = try TempDirectory()
        if change == "move off an exposed device key" { mkdir(dir.path + "/.git", 0o700) }
        let (owner, full, runner) = try makeVault(dir)
        let spare = AccessGroup("spare")!
        try owner.add("spare", "item", "spare-secret", group: spare)
        let spareReader = try AgeIdentity.generate()
        try owner.addMember(name: "spare-reader", recipient: spareReader.recipient, groups: [spare], readOnly: true)
        if change == "move off an exposed device key" {
            // As an earlier version left it: the device key beside the vault, in the work tree.
            let keyPath = deviceKeyPath(of: dir.location())
            let key = fileBytes(keyPath)
            unlink(keyPath)
            writeBytes(key, to: dir.location().legacyDeviceKeyPath)
        }
        if change == "quarantine" {
            // The first byte of spare's index MAC: the group is damaged, and quarantine gives it a new key.
            var bytes = fileBytes(dir.location().path)
            let decoded = try VaultFile.decode(bytes)
            let spareID = try #require(try Snapshot.unlock(bytes, secret: testKeyFile, deviceKey: nil, path: "").keys.groupID(of: spare))
            let slot = try #require(decoded.file.groups.firstIndex { $0.groupID == spareID })
            bytes[indexMACStart(decoded, slot: slot)] ^= 0x01
            writeBytes(bytes, to: dir.location().path)
        }
        let sharesBefore = try VaultFile.decode(fileBytes(dir.location().path)).file.members.map(\.ephemeralShare)
        switch change {
        case "rekey":
            _ = try owner.rekey(kdf: .testing) { _ in }
        case "revoke":
            try owner.revoke(group: ci)
        case "passwd":
            #expect(try owner.changePassphrase(to: SecretBytes(Array("pw".utf8)), kdf: .testing))
        case "remove passphrase":
            try owner.changePassphrase(to: SecretBytes(Array("pw".utf8)), kdf: .testing)
            _ = try owner.removePassphrase()
        case "delete group":
            try owner.deleteGroup(spare)
        case "wipe a group":
            let outcome = try owner.wipe(WipeFilter(query: Query(group: spare)), dryRun: false)
            #expect(outcome.rekeyedGroups == [spare])
        case "quarantine":
            #expect(try owner.quarantineDamagedGroups().groups == ["spare"])
        case "move off an exposed device key":
            try owner.add("new", "item", "after the move")
            #expect(!FileSystem.exists(dir.location().legacyDeviceKeyPath))
        default:
            try owner.revoke(group: prod)
        }
        let after = try VaultFile.decode(fileBytes(dir.location().path)).file.members.map(\.ephemeralShare)
        #expect(!after.isEmpty && Set(after).isDisjoint(with: sharesBefore), "\(change)")
        #expect(try member(dir.location(), full).secret("db", "prod") == "prod-secret", "\(change)")
        #expect(try member(dir.location(), runner).secret("db", "ci") == "ci-secret", "\(change)")
        switch change {
        case "delete group":
            // Its only group is gone: the scoped member leaves with it.
            #expect(try owner.members().map(\.name) == ["alice", "ci-runner"])
            #expect(throws: VaultError.noMemberSlot(recipients: [spareReader.recipient.description])) {
                try member(dir.location(), spareReader).secret("spare", "item")
            }
        case "wipe a group", "quarantine":
            // The group is empty under a new key, which the member's slot holds.
            #expect(try owner.members().map(\.name) == ["alice", "ci-runner", "spare-reader"])
            #expect(try member(dir.location(), spareReader).attributes(matching: Query(group: spare)).isEmpty, "\(change)")
        default:
            #expect(try owner.members().map(\.name) == ["alice", "ci-runner", "spare-reader"])
            #expect(try member(dir.location(), spareReader).secret("spare", "item") == "spare-secret", "\(change)")
        }
    }

    @Test func aRemovedFullMemberOpensNothingOfTheNextFile() throws {
        let dir = try TempDirectory()
        let (owner, full, runner) = try makeVault(dir)
        let old = fileBytes(dir.location().path)
        let oldFile = try VaultFile.decode(old).file
        guard case .full(let oldKeys) = try Snapshot.openMemberSlot(oldFile, identities: [full], path: "").keys else {
            Issue.record("alice is a full member")
            return
        }
        let removal = try owner.removeMember(named: "alice", kdf: .testing) { _ in }
        #expect(removal.rekey != nil)
        #expect(throws: VaultError.noMemberSlot(recipients: [full.recipient.description])) {
            try member(dir.location(), full).secret("db", "prod")
        }
        // The keys the old slot gave check nothing of the new file.
        #expect(throws: VaultError.corrupted(path: "", detail: .headerMACMismatch)) {
            try Snapshot.open(FileBytes(fileBytes(dir.location().path)), fullKeys: .member(oldKeys), deviceKey: nil, path: "")
        }
        #expect(try member(dir.location(), runner).secret("db", "ci") == "ci-secret")
        #expect(try owner.members().map(\.name) == ["ci-runner"])
    }

    @Test func aRemovedScopedMemberOpensNothingOfItsGroups() throws {
        let dir = try TempDirectory()
        let (owner, full, runner) = try makeVault(dir)
        let oldFile = try VaultFile.decode(fileBytes(dir.location().path)).file
        guard case .scoped(_, let oldGrants) = try Snapshot.openMemberSlot(oldFile, identities: [runner], path: "").keys else {
            Issue.record("ci-runner is scoped")
            return
        }
        let removal = try owner.removeMember(named: "ci-runner", kdf: .testing) { _ in }
        #expect(removal.rekey == nil)
        #expect(throws: VaultError.noMemberSlot(recipients: [runner.recipient.description])) {
            try member(dir.location(), runner).secret("db", "ci")
        }
        // The keys its old slot gave are revoked, and the re-sealed record does not open with its old base keys.
        let credential = ScopedCredential.member(name: "ci-runner", vaultID: oldFile.vaultID, readOnly: true, grants: oldGrants)
        #expect(throws: VaultError.credentialRevoked(ci)) {
            try Snapshot.open(fileBytes(dir.location().path), credential: credential, deviceKey: nil, path: "")
        }
        let file = try VaultFile.decode(fileBytes(dir.location().path)).file
        let ciID = oldGrants[0].groupID
        let position = try #require(file.index.indices.first { file.index[$0].groupID == ciID })
        let sealed = Array(file.records[position])
        for base in oldGrants[0].baseKeys.values {
            var ring = KeyRing(vaultID: file.vaultID, headerMACKey: nil, deviceKey: nil)
            ring.addGroup(
                GroupKeys(
                    group: ci, groupKey: nil, lookupKey: oldGrants[0].lookupKey, indexMACKey: nil,
                    baseKeys: [file.index[position].classID: base]), id: ciID)
            let key = try ring.recordKey(groupID: ciID, accessibility: .whenUnlocked, recordID: Bytes16(file.index[position].recordID))
            #expect(throws: CryptoError.self) {
                try AESGCM.open(
                    sealed, key: key,
                    aad: AAD.record(
                        vaultID: file.vaultID, recordID: file.index[position].recordID,
                        groupID: ciID, classID: file.index[position].classID))
            }
        }
        #expect(try member(dir.location(), full).secret("db", "ci") == "ci-secret")
    }
}
