import FoundationEssentials
import VaultCrypto

#if canImport(Glibc)
import Glibc
#endif

// What the keys at hand may do: a scoped credential's groups, the owner's work.
extension Vault {
    /// With a scoped credential or a scoped member's identity: refuses a group it does not cover,
    /// and any change when it lacks the write keys (whatever its read-only flag says).
    func checkScope(_ group: AccessGroup?, writing: Bool = false) throws {
        let credential: ScopedCredential
        switch source {
        case .scoped(let given): credential = given
        case .identity: guard let member = try memberKeys() else { return }; credential = member
        default: return
        }
        if writing, !credential.canWrite {
            throw credential.memberName.map { VaultError.readOnlyMember($0) } ?? VaultError.readOnlyCredential
        }
        if let group, !credential.groups.contains(group) {
            if let name = credential.memberName { throw VaultError.outsideMember(name: name, group: group, covered: credential.groups) }
            throw VaultError.outsideCredential(group: group, covered: credential.groups)
        }
    }

    /// Refuses what only the owner may do when the keys are a scoped credential's or a scoped member's.
    func requireOwner(_ action: OwnerAction) throws {
        if case .scoped = source { throw VaultError.ownerOnly(action) }
        if case .identity = source, let member = try memberKeys() {
            throw VaultError.scopedMemberCannot(name: member.memberName ?? "", action: action)
        }
    }

    /// Refuses, with an identity, what raises the key epoch (a re-key, a member's removal, a revoke,
    /// a group's deletion or quarantine): a new epoch's trust statement is signed with the trust key,
    /// which only the master key unwraps and no member holds (docs/TEAMS.md, "Trust").
    func requireTrustKey(_ action: OwnerAction) throws {
        try requireOwner(action)
        if case .identity = source { throw VaultError.trustKeyNeeded(action) }
    }

    /// Refuses a keyslot change with an identity: even a full member, which holds every group's keys,
    /// does not replace or remove the owner's passphrase, key files or keyring key.
    func requireKeyslotSecret(_ action: OwnerAction) throws {
        if case .identity = source { throw VaultError.identityCannot(action) }
    }
}
