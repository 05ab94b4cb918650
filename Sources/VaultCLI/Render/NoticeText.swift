import VaultCore

/// The words for what vault did on its own (`VaultNotice`), one stderr line each.
enum NoticeText {
    static func describe(_ notice: VaultNotice) -> Diagnostics.Line {
        switch notice {
        case .rekeyAsksForTheSecret:
            return .notice(
                "a re-key seals a new master key under your passphrase (or key file), which a session does not hold: "
                    + "it is asked for here")
        case .deviceKeyExposed(let path):
            return .warning(
                "the device key \(quoted(path)) lies in a git work tree, so it is public; "
                    + "the owner's next change to the vault (with the passphrase, a key file or a session) moves the vault off it")
        case .deviceKeyReplaced(let oldPath, let removed, let resealed):
            let items = resealed == 1 ? "1 device-bound or always item" : "\(resealed) device-bound or always items"
            let next =
                removed
                ? "removed it; if it was committed, commit its removal ('git rm --cached \(shellQuoted(oldPath))' if git still tracks it)"
                : "kept it for the other vaults in its directory; remove it from git once they have been opened"
            return .warning(
                "the device key \(quoted(oldPath)) lay in a git work tree; made a new one outside it, "
                    + "sealed \(items) again, and \(next); secrets of those items that were in the vault before are known to "
                    + "whoever holds the old key and an old copy: change them at their service")
        case .converted(let backup):
            return .notice(
                "converted the vault to format v2; "
                    + (backup.map { "the v1 file is kept at \(quoted($0))" } ?? "git's history keeps the v1 file"))
        case .itemInConflict(let key):
            return .warning(
                "service \(quoted(key.service)), account \(quoted(key.account)) in group \(quoted(key.group.name)) is in conflict since a merge; this is one side's version (see 'vault conflicts', 'get --theirs', 'vault resolve')"
            )
        case .trustFingerprintChanged(let fingerprint):
            return .notice(
                "the vault's trust fingerprint is now \(fingerprint): pin it again wherever the old one was pinned (VAULT_TRUST, config trust)"
            )
        case .rollbackAccepted(let epoch, let expected):
            return .warning(
                "accepted a vault at key epoch \(epoch), below the \(expected) this machine had seen or was told to expect, and recorded it as seen"
            )
        case .forkedCopy(let written, let other):
            return .warning(
                "\(quoted(written)) is a copy of the vault \(quoted(other)) (the same vault id), so after this write "
                    + "\(quoted(other)) reads here as an older version of it and its changes are refused (49); to keep both as vaults of their own, "
                    + "make the copy with 'vault --vault \(shellQuoted(other)) copy --to PATH' instead (one write to \(quoted(other)) with --accept-rollback takes it back)"
            )
        case .behindSeen(let found, let seen):
            return .warning(
                "this vault is behind what this machine has seen (generation \(found), seen \(seen)): "
                    + "an older checkout, or a rolled-back copy; changes are refused until it is current")
        case .siblingOfSeen(let found, let seen):
            return .warning(
                "this vault is a sibling of the version this machine has seen: the same counters, another write "
                    + "(write id \(found.hex), seen \(seen.hex)), made by another clone from the same base; "
                    + "changes are refused until the two are merged ('vault sync')")
        }
    }
}
