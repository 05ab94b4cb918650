import FoundationEssentials
import VaultCrypto

// The keyslots as read: which kinds the vault has, and whether one opens with a secret.
extension OpenVault {
    /// Whether a keyslot of `kind` opens with `secret`.
    func keyslotOpening(kind: Keyslot.Kind, with secret: SecretBytes) throws -> Bool {
        try file.keyslots.contains { slot in
            guard slot.kind == kind else { return false }
            if case .opened = try slot.open(with: secret, vaultID: file.vaultID) { return true }
            return false
        }
    }

    /// Whether the vault has a keyslot of `kind`.
    func hasKeyslot(_ kind: Keyslot.Kind) -> Bool {
        file.keyslots.contains { $0.kind == kind }
    }
}
