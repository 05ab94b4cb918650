import Foundation
import Testing
@testable import VaultCore
import VaultCrypto

/// Issue 17's authenticity attack, as reproduced: a public-key slot can be sealed by anyone who can
/// write the file, so whoever can push to the repository could commit a vault of their own, sealed
/// to the CI runner's public recipient, and feed the job their own secret. Every write of the owner
/// (or a full member) signs the header; a reader pinned to the vault's trust fingerprint refuses a
/// header that key did not sign, and an identity reads nothing without a pin (docs/TEAMS.md, "Trust").
@Suite struct TrustTests {
    let ci = AccessGroup("ci")!

    func owner(_ dir: TempDirectory, runner: AgeIdentity) throws -> Vault {
        let owner = try Vault.makeTest(at: dir.location())
        try owner.add("db", "ci", "the-real-secret", group: ci)
        try owner.addMember(name: "ci-runner", recipient: runner.recipient, groups: [ci], readOnly: true)
        return owner
    }

    /// A reader with `identity` on this machine, or (`machine`) on another that remembers nothing of the vault, as a fresh CI runner.
    func runner(_ dir: TempDirectory, _ identity: AgeIdentity, pinned: String?, machine: TempDirectory? = nil) -> Vault {
        Vault(
            location: dir.location(), keys: .identity([identity]),
            host: Vault.selfContainedHost(for: (machine ?? dir).location()), configuration: Vault.Configuration(trustedFingerprint: pinned))
    }

    @Test func aVaultForgedToTheRunnersRecipientIsRefused() throws {
        let dir = try TempDirectory(), forgery = try TempDirectory()
        let identity = try AgeIdentity.generate()
        let pinned = try owner(dir, runner: identity).trustFingerprint()
        #expect(try runner(dir, identity, pinned: pinned).secret("db", "ci", group: ci) == "the-real-secret")
        #expect(runner(dir, identity, pinned: pinned).memberName == "ci-runner")
        // The attacker makes a vault of their own keys, seals a slot to the runner's public recipient, and commits it in place.
        let forger = try Vault.makeTest(at: forgery.location())
        try forger.add("db", "ci", "the-attackers-secret", group: ci)
        try forger.addMember(name: "ci-runner", recipient: identity.recipient, groups: [ci], readOnly: true)
        writeBytes(fileBytes(forgery.location().path), to: dir.location().path)
        let path = dir.location().path
        #expect(throws: VaultError.untrustedVault(path: path, pinned: pinned)) {
            try runner(dir, identity, pinned: pinned).secret("db", "ci", group: ci)
        }
        #expect(throws: VaultError.trustNotPinned(path: path)) { try runner(dir, identity, pinned: nil).secret("db", "ci", group: ci) }
        // Nor does it say who the identity is there (vault status names the member from its slot).
        #expect(runner(dir, identity, pinned: pinned).memberName == nil)
    }

    /// The signature covers the header: a byte of it, or of the signature, changed is refused by a pinned reader.
    @Test func aChangedHeaderOrSignatureIsRefused() throws {
        let dir = try TempDirectory()
        let identity = try AgeIdentity.generate()
        let pinned = try owner(dir, runner: identity).trustFingerprint()
        let path = dir.location().path
        let original = fileBytes(path)
        let decoded = try VaultFile.decode(original)
        for offset in [decoded.parametersEnd + 32 + 32 + 5, decoded.parametersEnd + 32 + 32 + 63] {
            var bytes = original
            bytes[offset] ^= 0x01  // inside the signature, after the checksum and header MAC
            writeBytes(bytes, to: path)
            #expect(throws: VaultError.untrustedVault(path: path, pinned: pinned)) {
                try runner(dir, identity, pinned: pinned).secret("db", "ci", group: ci)
            }
        }
    }

    /// `vault rekey` replaces the trust key (whoever held the old master key could unwrap the old
    /// one): a reader pinned to the old fingerprint refuses the re-keyed vault until pinned again.
    @Test func aRekeyReplacesTheTrustKey() throws {
        let dir = try TempDirectory()
        let identity = try AgeIdentity.generate()
        let owner = try owner(dir, runner: identity)
        let before = try owner.trustFingerprint()
        _ = try owner.rekey(kdf: .testing) { _ in }
        let after = try owner.trustFingerprint()
        #expect(before != after)
        #expect(throws: VaultError.untrustedVault(path: dir.location().path, pinned: before)) {
            try runner(dir, identity, pinned: before).secret("db", "ci", group: ci)
        }
        #expect(try runner(dir, identity, pinned: after).secret("db", "ci", group: ci) == "the-real-secret")
    }

    /// A team: the owner, a full member (bob) and the read-only runner; bob's identity, pinned.
    func team(_ dir: TempDirectory) throws -> (owner: Vault, bob: AgeIdentity, runner: AgeIdentity, pinned: String) {
        let runner = try AgeIdentity.generate(), bob = try AgeIdentity.generate()
        let owner = try owner(dir, runner: runner)
        try owner.addMember(name: "bob", recipient: bob.recipient, groups: [], readOnly: false)
        return (owner, bob, runner, try owner.trustFingerprint())
    }

    /// Issue 17: "bob removed: … alice and ci-runner unaffected". A full member never holds the
    /// trust key, so removing one re-keys everything but it: the fingerprint stays, and the runner
    /// reads on with the pin it had; bob's identity opens nothing.
    @Test func aFullMembersRemovalKeepsThePin() throws {
        let dir = try TempDirectory()
        let (owner, bob, identity, pinned) = try team(dir)
        try runner(dir, bob, pinned: pinned).add("db", "bob", "written-by-bob", group: ci)
        let removal = try owner.removeMember(named: "bob", kdf: .testing) { _ in }
        #expect(removal.rekey != nil)
        #expect(try owner.trustFingerprint() == pinned)
        #expect(try runner(dir, identity, pinned: pinned).secret("db", "ci", group: ci) == "the-real-secret")
        #expect(try runner(dir, identity, pinned: pinned).secret("db", "bob", group: ci) == "written-by-bob")
        #expect(throws: VaultError.noMemberSlot(recipients: [bob.recipient.description])) {
            try runner(dir, bob, pinned: pinned).secret("db", "ci", group: ci)
        }
    }

    /// What a removed full member's own build could write from its old copy (the client's checks
    /// left out): the runner's item holding "bobs-secret", and the header changed by `header`.
    func forge(_ oldCopy: [UInt8], by bob: AgeIdentity, header: (inout VaultFile) throws -> Void) throws -> [UInt8] {
        var forged = WorkingCopy(try Snapshot.open(FileBytes(oldCopy), identities: [bob], deviceKey: nil, path: ""))
        let position = try #require(forged.file.index.indices.first { try! forged.openWholeRecord(at: $0).item.attributes.service == "db" })
        var record = try forged.openWholeRecord(at: position)
        record.item.secret = SecretBytes(Array("bobs-secret".utf8))
        try forged.store(record, replacing: position)
        _ = try forged.openTeamLog()
        try header(&forged.file)
        forged.trustAsRead = TrustFields(of: forged.file)
        return try forged.encode()
    }

    /// `forge` with the key epoch raised by `epochRaise`, and the trust statement it had or
    /// (`ownTrustKey`) one a trust key of its own signed.
    func forge(_ oldCopy: [UInt8], by bob: AgeIdentity, epochRaise: UInt64, ownTrustKey: Bool = false) throws -> [UInt8] {
        try forge(oldCopy, by: bob) { file in
            // His build appends to his copy's team log (he holds its old wrap key) to reach the epoch.
            file.keyEpoch += epochRaise
            var log = try #require(file.teamLog)
            log.append(.rekeyed(trustKeyReplaced: false), keyEpoch: file.keyEpoch)
            file.teamLog = log
            guard ownTrustKey else { return }
            let key = TrustKey.random()
            file.trustPublicKey = try key.publicKey()
            file.trustSignature = try key.sign(TrustFields(of: file).statement(vaultID: file.vaultID))
        }
    }

    /// The attack a kept pin invites: bob, removed, still holds his copy of the file from before
    /// (git history) and the keys his slot gave, among them that epoch's signing key. A file he
    /// makes at a higher key epoch carries a trust statement for his epoch only, which he cannot
    /// sign again without the trust key, or one under a trust key of his own: refused (51). One at
    /// his own epoch is a rollback: a runner that read the vault since refuses it (49, the epoch of
    /// the statement it checked is remembered); one that remembers nothing refuses it only with a
    /// minimum epoch (49) — the documented limit.
    @Test func aRemovedFullMemberCannotVouchForALaterEpoch() throws {
        let dir = try TempDirectory(), bobs = try TempDirectory(), ciMachine = try TempDirectory(), freshMachine = try TempDirectory()
        let (owner, bob, identity, pinned) = try team(dir)
        let path = dir.location().path
        let bobsCopy = fileBytes(path)
        let epochBefore = try VaultFile.decode(bobsCopy).file.keyEpoch
        _ = try owner.removeMember(named: "bob", kdf: .testing) { _ in }
        let epochAfter = try VaultFile.decode(fileBytes(path)).file.keyEpoch  // the removal and its re-key: two entries of the team log
        #expect(try runner(dir, identity, pinned: pinned, machine: ciMachine).secret("db", "ci", group: ci) == "the-real-secret")
        let current = fileBytes(path)

        for ownTrustKey in [false, true] {
            writeBytes(try forge(bobsCopy, by: bob, epochRaise: 5, ownTrustKey: ownTrustKey), to: path)
            #expect(throws: VaultError.untrustedVault(path: path, pinned: pinned)) {
                try runner(dir, identity, pinned: pinned, machine: freshMachine).secret("db", "ci", group: ci)
            }
        }

        // At his own epoch his write is signed as it was then.
        writeBytes(bobsCopy, to: bobs.location().path)
        _ = try runner(bobs, bob, pinned: pinned).update(
            matching: Query(service: "db", account: "ci", group: ci),
            with: ItemChange(secret: SecretBytes(Array("bobs-secret".utf8))))
        writeBytes(fileBytes(bobs.location().path), to: path)
        #expect(throws: VaultError.rolledBack(path: path, found: epochBefore, expected: epochAfter)) {
            try runner(dir, identity, pinned: pinned, machine: ciMachine).secret("db", "ci", group: ci)
        }
        #expect(try runner(dir, identity, pinned: pinned, machine: freshMachine).secret("db", "ci", group: ci) == "bobs-secret")
        let floored = runner(dir, identity, pinned: pinned, machine: freshMachine).reconfigured { $0.minimumEpoch = epochAfter }
        #expect(throws: VaultError.rolledBack(path: path, found: epochBefore, expected: epochAfter)) {
            try floored.secret("db", "ci", group: ci)
        }
        writeBytes(current, to: path)
    }

    /// The review's finding of the last design, closed: a removed full member copies the owner's old
    /// keyslot (it opens with the owner's unchanged key file) into a file it makes from its old copy
    /// at a higher key epoch, MACed with the header MAC key its slot gave. The owner's keys open the
    /// header, but the trust statement is for the member's old epoch, or under a trust key that is
    /// not the one the master key unwraps: damage (93), never its secrets.
    /// The team of `team(dir)` after the owner removed full member bob, who kept a copy of the file from before.
    private func bobRemovedKeepingHisCopy(_ dir: TempDirectory) throws -> (owner: Vault, bob: AgeIdentity, path: String, bobsCopy: [UInt8])
    {
        let (owner, bob, _, _) = try team(dir)
        let path = dir.location().path
        let bobsCopy = fileBytes(path)
        _ = try owner.removeMember(named: "bob", kdf: .testing) { _ in }
        return (owner, bob, path, bobsCopy)
    }

    @Test func aRemovedFullMemberCannotForgeAFileTheOwnerOpens() throws {
        let dir = try TempDirectory()
        let (owner, bob, path, bobsCopy) = try bobRemovedKeepingHisCopy(dir)
        writeBytes(try forge(bobsCopy, by: bob, epochRaise: 5), to: path)
        #expect(throws: VaultError.corrupted(path: path, detail: .violates(.trustStatementUnsigned))) {
            try owner.secret("db", "ci", group: ci)
        }
        writeBytes(try forge(bobsCopy, by: bob, epochRaise: 5, ownTrustKey: true), to: path)
        #expect(throws: VaultError.corrupted(path: path, detail: .violates(.trustKeyNotTheHeaders))) {
            try owner.secret("db", "ci", group: ci)
        }
    }

    /// The second review's finding: the trust statement is public (every commit holds it). Removed bob
    /// copies the current one, with the current key epoch, signing public key, team log and slots, into his old copy,
    /// changes a secret and MACs the header with his old header MAC key; the owner's unchanged key
    /// file opens the old keyslot there. What gives it away is the signing key: the one sealed under
    /// bob's old wrap key is his epoch's, not the one the statement names (93).
    @Test func aCopiedTrustStatementDoesNotMakeAnOldCopyCurrent() throws {
        let dir = try TempDirectory()
        let (owner, bob, path, bobsCopy) = try bobRemovedKeepingHisCopy(dir)
        let current = try VaultFile.decode(fileBytes(path)).file
        // His build signs and seals with his old signing key, which opening his copy unwrapped.
        writeBytes(
            try forge(bobsCopy, by: bob) { file in
                file.keyEpoch = current.keyEpoch
                file.signingPublicKey = current.signingPublicKey
                file.teamLog = current.teamLog  // payloads sealed under a wrap key he lacks, but the statement covers only the head
                file.members = current.members
                file.trustSignature = current.trustSignature
            }, to: path)
        #expect(throws: VaultError.corrupted(path: path, detail: .violates(.signingKeyNotTheHeaders))) {
            try owner.secret("db", "ci", group: ci)
        }
    }

    /// A key epoch the owner raises always gets a fresh signing key: an owner who once opened a
    /// removed member's old copy (a machine that did not know better) and revoked a group there has
    /// the trust key vouch for a new signing key, never for the one the removed member held.
    @Test func anEpochRaiseReplacesTheSigningKey() throws {
        let dir = try TempDirectory()
        let (owner, _, _, _) = try team(dir)
        let before = try VaultFile.decode(fileBytes(dir.location().path)).file
        _ = try owner.revoke(group: ci)
        let after = try VaultFile.decode(fileBytes(dir.location().path)).file
        #expect(after.keyEpoch == before.keyEpoch + 1)
        #expect(after.signingPublicKey != before.signingPublicKey)
        #expect(after.trustPublicKey == before.trustPublicKey)
        try owner.add("db", "other", "x")
        #expect(try VaultFile.decode(fileBytes(dir.location().path)).file.signingPublicKey == after.signingPublicKey)
    }

    /// What raises the key epoch needs the trust key: a full member's identity can re-key, remove,
    /// revoke or delete nothing (30, the file unchanged), and a build that tried anyway would be
    /// stopped by the write itself. Everyday writes need no trust key and keep readers' pins.
    @Test func aFullMemberCannotRaiseTheKeyEpoch() throws {
        let dir = try TempDirectory()
        let (owner, bob, identity, pinned) = try team(dir)
        let member = runner(dir, bob, pinned: pinned)
        let before = fileBytes(dir.location().path)
        #expect(throws: VaultError.trustKeyNeeded(.rekeyVault)) { try member.rekey(kdf: .testing) { _ in } }
        #expect(throws: VaultError.trustKeyNeeded(.removeMembers)) { try member.removeMember(named: "ci-runner", kdf: .testing) { _ in } }
        #expect(throws: VaultError.trustKeyNeeded(.revokeCredentials)) { try member.revoke(group: ci) }
        #expect(throws: VaultError.trustKeyNeeded(.deleteGroups)) { try member.deleteGroup(ci) }
        #expect(fileBytes(dir.location().path) == before)

        // Every raise of the key epoch is an entry of the team log, which only the trust key's holder appends to.
        var opened = WorkingCopy(try Snapshot.open(FileBytes(before), identities: [bob], deviceKey: nil, path: ""))
        #expect(throws: VaultError.trustKeyNeeded(.changeTeamLog)) { try opened.appendToLog(.rekeyed(trustKeyReplaced: false)) }
        opened.file.keyEpoch += 1
        #expect(throws: VaultError.corrupted(path: "", detail: .violates(.keyEpochNotTheLogs))) { try opened.encode() }

        try member.add("db", "bob", "written-by-bob", group: ci)
        #expect(try runner(dir, identity, pinned: pinned).secret("db", "bob", group: ci) == "written-by-bob")
        #expect(try owner.trustFingerprint() == pinned)
    }

    /// A read-write scoped credential writes its groups without the header MAC key or the signing
    /// key: it keeps the header, and so the owner's signature, byte for byte. Pinned readers still read.
    @Test func aScopedWriteKeepsTheOwnersSignature() throws {
        let dir = try TempDirectory()
        let identity = try AgeIdentity.generate()
        let owner = try owner(dir, runner: identity)
        let pinned = try owner.trustFingerprint()
        let writer = Vault(
            location: dir.location(), keys: .scoped(try owner.grant(groups: [ci], readOnly: false, expires: nil)),
            host: Vault.selfContainedHost(for: dir.location()))
        try writer.add("npm", "ci", "written-by-ci", group: ci)
        let reader = runner(dir, identity, pinned: pinned)
        #expect(try reader.secret("npm", "ci", group: ci) == "written-by-ci")
    }
}
