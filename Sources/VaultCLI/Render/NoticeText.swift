import VaultCore

/// The words for what vault did on its own (`VaultNotice`), one stderr line each.
enum NoticeText {
    static func describe(_ notice: VaultNotice) -> String {
        switch notice {
        case .deviceKeyReplaced(let oldPath, let removed, let resealed):
            let items = resealed == 1 ? "1 device-bound item" : "\(resealed) device-bound items"
            let next = removed
                ? "removed it; if it was committed, commit its removal ('git rm --cached \(shellQuoted(oldPath))' if git still tracks it)"
                : "kept it for the other vaults in its directory; remove it from git once they have been opened"
            return "vault: warning: the device key \(quoted(oldPath)) lay in a git work tree; made a new one outside it, "
                + "sealed \(items) again, and \(next)\n"
        }
    }
}
