import VaultCore

/// The words for Snapshot/'s errors.
extension ErrorReport {
    /// A SnapshotError in words; `input`, when one of a merge's files was refused, names the file the
    /// refusal is of instead of its path.
    static func describe(_ error: SnapshotError, of input: MergeInput? = nil) -> ErrorReport {
        let status = error.status
        /// The vault file named: `input` when there is one, else its path (`shown`: how).
        func vault(_ path: String, shown: (String) -> String = quoted) -> String {
            input.map { quoted(words($0, path: path)) } ?? shown(path)
        }
        switch error {
        case .corrupted(let path, let detail):
            return ErrorReport(
                status: status, message: "the vault \(vault(path)) is damaged or was tampered with: \(detail)",
                hint: "nothing was changed; restore the file from a backup")
        case .damagedGroup(let path, let group):
            return ErrorReport(
                status: status,
                message:
                    "the vault \(vault(path)) is damaged or was tampered with in group \(quoted(group.name)): its index does not match its MAC",
                hint:
                    "every group but this one opens as before; 'vault verify --quarantine' sets its items aside, or restore the file from a backup"
            )
        case .rolledBack(let path, let found, let expected):
            return ErrorReport(
                status: status,
                message:
                    "the vault \(vault(path)) was rolled back: its key epoch is \(found), and this machine has seen (or was told to expect) \(expected)",
                hint: "restore the newest copy (git pull), or run with --accept-rollback if the restore was intended")
        case .behindSeen(let path, let found, let seen):
            return ErrorReport(
                status: status,
                message:
                    "the vault \(quoted(path)) is behind what this machine has seen (generation \(found), seen \(seen)); nothing was changed",
                hint: "bring the newest copy here (git pull), or run with --accept-rollback if going back was intended")
        case .siblingOfSeen(let path, let found, let seen):
            return ErrorReport(
                status: status,
                message: "the vault \(quoted(path)) is a sibling of the version this machine has seen: the same counters, "
                    + "another write (write id \(found.hex), seen \(seen.hex)), made by another clone from the same base; nothing was changed",
                hint: "merge the two with 'vault sync', or run with --accept-rollback to take this file as the vault")
        case .untrustedVault(let path, let pinned):
            return ErrorReport(
                status: status,
                message:
                    "the vault \(vault(path, shown: shownPath)) is not signed by the key you trust (trust fingerprint \(pinned.prefix(16))…); it may have been written by someone else",
                hint: "if the vault was re-keyed, run 'vault trust' where it is unlocked and pin the new fingerprint in VAULT_TRUST")
        case .trustNotPinned(let path):
            return ErrorReport(
                status: status,
                message:
                    "an identity reads the vault \(vault(path, shown: shownPath)) only with a trust fingerprint pinned: anyone who can write the file can seal a member slot",
                hint:
                    "ask the vault's owner for the output of 'vault trust' and pin it here with 'vault trust --pin FINGERPRINT' (or VAULT_TRUST)"
            )
        case .invalidTrustFingerprint(let source):
            return ErrorReport(
                status: status, message: "\(source) is not a trust fingerprint (64 hex digits)",
                hint: "give what 'vault trust' prints")
        }
    }
}
