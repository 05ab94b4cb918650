import VaultCrypto

// The team log's descent through the git history of a vault file (docs/TEAMS.md, "Every head checked").
extension Vault {
    /// Runs `check` before a change when HEAD moved since this machine last checked this vault's
    /// history: `check` is given the commit last checked (nil: none yet) and throws when a commit
    /// since then drops team log entries of one before it (`historyDropsTeamLog`), and nothing
    /// changes. HEAD is read from git's files on every change; git runs (in `check`) only when HEAD
    /// moved. A refused HEAD is not recorded, so every change checks it again until it is fixed.
    public func requireCheckedHistory(_ check: (_ lastChecked: String?) throws -> Void) throws {
        guard let head = GitWorkTree.headCommit(of: location.directory) else { return }
        let last = lastCheckedCommit()
        guard last != head else { return }
        try check(last)
        recordCheckedCommit(head)
    }

    /// The commit of this vault's work tree this machine last found keeping the team log of every
    /// commit before it; nil when none was recorded.
    public func lastCheckedCommit() -> String? {
        // Read as the config is: a record someone else could write would let them skip this check.
        guard let checked = try? FileSystem.readSettings(checkedRecordPath, missing: .noSuchVault(path: checkedRecordPath)) else { return nil }
        let text = String(decoding: checked, as: UTF8.self)
        return text.isEmpty ? nil : text
    }

    /// Records `commit` as checked (best effort: without the record the next check walks further back).
    public func recordCheckedCommit(_ commit: String) {
        try? FileSystem.makeDirectory(checkedRecordDirectory)
        try? FileSystem.writeAtomically(Array(commit.utf8), to: checkedRecordPath, directory: checkedRecordDirectory)
    }

    /// Whether two vault files are versions of one vault (the same vault id, read in clear).
    public static func areVersionsOfOneVault(_ first: [UInt8], _ second: [UInt8]) -> Bool {
        let id = VaultFile.peekVaultID(first)
        return !id.isEmpty && id == VaultFile.peekVaultID(second)
    }

    /// Whether the keys at hand are the owner's (a keyslot's passphrase or key file, or its session):
    /// the only keys whose sync repairs a branch that dropped team log entries. An identity's or a
    /// credential's are not; with no keys yet, the unlockers are asked as for any read.
    public func keysAreTheOwners() throws -> Bool {
        try withKeys {
            switch source {
            case .identity, .scoped: return false
            default:
                guard try readSnapshot().keys.masterKey != nil else { throw VaultError.locked(nil) }
                return true
            }
        }
    }

    /// Refuses, before git starts a merge vault could not finish, keys that cannot merge: a scoped
    /// credential's or scoped member's (`ownerOnly(.mergeVault)`, `scopedMemberCannot`); with no
    /// keys yet, the unlockers are asked as for any read.
    public func requireKeysThatMerge() throws {
        try requireOwner(.mergeVault)
        try withKeys {
            guard try readSnapshot().keys.fullKeys != nil else { throw VaultError.locked(nil) }
        }
    }

    private var checkedRecordDirectory: String { host.stateDirectory + "/checked-history" }

    private var checkedRecordPath: String {
        checkedRecordDirectory + "/" + hex(SHA256.hash(Array((FileSystem.realPath(location.path) ?? location.path).utf8)))
    }
}
