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

    func runner(_ dir: TempDirectory, _ identity: AgeIdentity, pinned: String?) -> Vault {
        let vault = Vault(location: dir.location(), keys: .identity([identity]), host: Vault.selfContainedHost(for: dir.location()))
        vault.trustedFingerprint = pinned
        return vault
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
        #expect(throws: VaultError.untrustedVault(path: path, pinned: pinned)) { try runner(dir, identity, pinned: pinned).secret("db", "ci", group: ci) }
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
            #expect(throws: VaultError.untrustedVault(path: path, pinned: pinned)) { try runner(dir, identity, pinned: pinned).secret("db", "ci", group: ci) }
        }
    }

    /// A re-key replaces the signing key (whoever held the old master key could unwrap the old one):
    /// a reader pinned to the old fingerprint refuses the re-keyed vault until pinned again.
    @Test func aRekeyReplacesTheSigningKey() throws {
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

    /// A read-write scoped credential writes its groups without the header MAC key or the signing
    /// key: it keeps the header, and so the owner's signature, byte for byte. Pinned readers still read.
    @Test func aScopedWriteKeepsTheOwnersSignature() throws {
        let dir = try TempDirectory()
        let identity = try AgeIdentity.generate()
        let owner = try owner(dir, runner: identity)
        let pinned = try owner.trustFingerprint()
        let writer = Vault(location: dir.location(), keys: .scoped(try owner.grant(groups: [ci], readOnly: false, expires: nil)),
                           host: Vault.selfContainedHost(for: dir.location()))
        try writer.add("npm", "ci", "written-by-ci", group: ci)
        let reader = runner(dir, identity, pinned: pinned)
        #expect(try reader.secret("npm", "ci", group: ci) == "written-by-ci")
    }
}
