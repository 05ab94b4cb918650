import Foundation
import Testing
@testable import VaultCore
import VaultCrypto

/// A member slot is bound to the member the owner added: a full member holds the header MAC key,
/// the wrap key and its epoch's signing key, so it can seal and sign a header of its own, but it
/// must not be able to take over another member's slot — re-seal it, key part and roster part,
/// to an identity of its own — so that the owner's next re-key (its own removal among them)
/// seals the other member's keys to the attacker (docs/TEAMS.md, "Members" and "Trust").
@Suite struct MemberSlotBindingTests {
    let ci = AccessGroup("ci")!

    /// A view of the vault with `identity`, pinned to `pinned`, on `machine` (a directory whose
    /// host state — seen counters, caches — is that machine's; the vault's own directory when nil).
    func member(_ dir: TempDirectory, _ identity: AgeIdentity, pinned: String, machine: TempDirectory? = nil) -> Vault {
        Vault(
            location: dir.location(), keys: .identity([identity]),
            host: Vault.selfContainedHost(for: (machine ?? dir).location()), configuration: Vault.Configuration(trustedFingerprint: pinned))
    }

    /// `vault.file` as a full member's own build writes it, the client's checks left out: the header
    /// parameters as they now are, their checksum, the header MAC under `headerMACKey` and the header
    /// signature under the epoch's signing key (which the full member's wrap key unwrapped on opening).
    /// The write generation is kept, so every group's MACs still hold.
    func signedAsAFullMember(_ vault: OpenVault, headerMACKey: HeaderMACKey) throws -> [UInt8] {
        var file = vault.file
        let signingKey = try #require(vault.signingKey, "opening with a full member's identity unwraps the signing key")
        let parameters = file.encodeHeaderParameters()
        let checksum = SHA256.hash(parameters)
        file.headerSignature = try signingKey.sign(AAD.headerSignature(header: parameters + checksum))
        let headerMAC = HMAC.sha256(key: headerMACKey.secret, data: parameters + checksum)
        return StoredBytes.joined(file.encodePieces(parameters: parameters, checksum: checksum, headerMAC: headerMAC))
    }

    @Test func aFullMemberCannotRewriteAnotherMembersSlot() throws {
        let dir = try TempDirectory(), mallorysMachine = try TempDirectory(), bobsMachine = try TempDirectory()
        let path = dir.location().path

        // The team: the owner (the test key file), full members mallory and bob, and carol, a
        // read-only member of group ci.
        let owner = try Vault.makeTest(at: dir.location())
        try owner.add("db", "prod", "before-the-forgery")
        try owner.add("deploy", "ci", "ci-token", group: ci)
        let mallory = try AgeIdentity.generate(), mallory2 = try AgeIdentity.generate()
        let bob = try AgeIdentity.generate(), carol = try AgeIdentity.generate()
        try owner.addMember(name: "mallory", recipient: mallory.recipient, groups: [], readOnly: false)
        try owner.addMember(name: "bob", recipient: bob.recipient, groups: [], readOnly: false)
        try owner.addMember(name: "carol", recipient: carol.recipient, groups: [ci], readOnly: true)
        let pinned = try owner.trustFingerprint()
        #expect(try member(dir, bob, pinned: pinned, machine: bobsMachine).secret("db", "prod") == "before-the-forgery")

        // mallory, with her own keys only (her slot gives HMK and WK, and WK unwraps the epoch's
        // signing key), rewrites bob's slot: the roster entry still names bob, full, added when he
        // was, but its recipient is mallory2's, and the key part is sealed to mallory2. Her own
        // build then writes the header as a full member's write does — MACed with HMK, signed with
        // the epoch's signing key, the owner's trust statement kept (the key epoch is unchanged) —
        // with none of the client's checks of what a member may change.
        var forged = WorkingCopy(try Snapshot.open(FileBytes(fileBytes(path)), identities: [mallory], deviceKey: nil, path: path))
        guard case .full(let mallorysKeys) = try Snapshot.openMemberSlot(forged.file, identities: [mallory], path: path).keys else {
            Issue.record("mallory is a full member")
            return
        }
        let bobsIndex = try #require(
            try forged.file.members.firstIndex { slot in
                try slot.roster(wrapKey: mallorysKeys.wrapKey, vaultID: forged.file.vaultID).name == "bob"
            })
        let bobsEntry = try forged.file.members[bobsIndex].roster(wrapKey: mallorysKeys.wrapKey, vaultID: forged.file.vaultID)
        #expect(bobsEntry.recipient == bob.recipient && bobsEntry.scope == .full)
        let impostor = Member(name: "bob", recipient: mallory2.recipient, addedAt: bobsEntry.addedAt, scope: .full)
        forged.file.members[bobsIndex] = try MemberSlot.seal(
            impostor, keys: .full(mallorysKeys), vaultID: forged.file.vaultID,
            wrapKey: mallorysKeys.wrapKey)
        writeBytes(try signedAsAFullMember(forged, headerMACKey: mallorysKeys.headerMACKey), to: path)
        // Today mallory2 is "bob" from here on: the slot the owner thinks is bob's opens with mallory2's identity.

        // (a) The fix may refuse the forged file outright when the owner opens it (a slot sealed to a
        // recipient the owner never added): reading it, listing the members, or `verify` finding it damaged.
        var refusedByOwner: String? = nil
        do {
            _ = try owner.secret("db", "prod")
            _ = try owner.members()
            let report = try owner.verify()
            if report.isDamaged {
                refusedByOwner = "verify: \(report.damage.map { "\($0)" } ?? report.damagedRoster.map { "\($0)" } ?? "damaged")"
            }
        } catch let error as VaultError {
            refusedByOwner = "\(error)"
        }
        if let refusedByOwner {
            // Refused: the owner writes nothing more on the forged header. That is the property.
            print("the owner's keys refuse the file mallory forged: \(refusedByOwner)")
            return
        }

        // (b) Otherwise the file opens for the owner; then the owner's removal of mallory must shut
        // out every identity of mallory's: it re-keys the vault and seals every other member's slot
        // again to the new keys. Sealed from the forged roster, "bob"'s new slot is mallory2's.
        let removal = try owner.removeMember(named: "mallory", kdf: .testing) { _ in }
        #expect(removal.rekey != nil)
        try owner.add("db", "after-removal", "written-after-mallory-was-removed")
        #expect(try owner.trustFingerprint() == pinned, "a full member's removal keeps the trust key")

        // The attack: mallory2 (mallory's second identity) reads what the owner wrote after removing her.
        #expect(throws: VaultError.self, "mallory2 opens the vault after mallory's removal (through bob's rewritten slot)") {
            _ = try member(dir, mallory2, pinned: pinned, machine: mallorysMachine).secret("db", "after-removal")
        }
        // And bob, the member the owner added, still reads with his own identity.
        do {
            let read = try member(dir, bob, pinned: pinned, machine: bobsMachine).secret("db", "after-removal")
            #expect(read == "written-after-mallory-was-removed")
        } catch {
            Issue.record("bob's own identity no longer opens the vault after mallory's removal: \(error)")
        }
        // carol, whose slot mallory left alone, reads her group as before.
        #expect(try member(dir, carol, pinned: pinned).secret("deploy", "ci", group: ci) == "ci-token")
        // mallory's own identity is out, as the removal promises.
        #expect(throws: VaultError.noMemberSlot(recipients: [mallory.recipient.description])) {
            _ = try member(dir, mallory, pinned: pinned, machine: mallorysMachine).secret("db", "prod")
        }
    }
}
