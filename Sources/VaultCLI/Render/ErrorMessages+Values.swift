import VaultCore

extension ErrorReport {
    /// The words for a value the vault does not accept: `invalid FIELD: DETAIL`, with help's hint.
    static func describe(_ value: InvalidValue) -> ErrorReport {
        let (field, detail) = words(value)
        return invalid(field, detail)
    }

    /// The report of a value that is not accepted: the field it was given for, and why.
    static func invalid(_ field: String, _ detail: String) -> ErrorReport {
        ErrorReport(status: .usage, message: "invalid \(field): \(detail)", hint: "see 'vault help'")
    }

    private static func words(_ value: InvalidValue) -> (field: String, detail: String) {
        switch value {
        case .memberName(let name):
            return (
                "member name",
                "\"\(name)\" is not a valid name (the rules of group names: 1 to \(AccessGroup.maxLength) letters, digits, '.', '_' or '-')"
            )
        case .memberNameTaken(let name):
            return ("member", "a member named \"\(name)\" exists; remove it first or choose another name")
        case .recipientTaken(let member):
            return ("member", "that recipient is the member \"\(member)\"'s already")
        case .tooManyMembers(let limit):
            return ("member", "a vault holds at most \(limit) members")
        case .tooManyMemberGroups(let count, let limit):
            return ("member", "\(count) groups; a member holds at most \(limit)")
        case .readOnlyMemberWithoutGroups:
            return ("member", "a read-only member needs groups to read: a full member holds every group's keys, write keys included")
        case .tooManyCredentialGroups(let count, let limit):
            return ("grant", "\(count) groups; a credential covers at most \(limit)")
        case .tooManyKeyslots(let limit):
            return ("keyslot", "a vault holds at most \(limit) keyslots")
        case .keyringSlotExists:
            return ("keyslot", "the vault already has a desktop-keyring keyslot")
        case .keyFileAlreadyOpens:
            return ("key file", "it already opens this vault")
        case .noPassphraseToRemove:
            return ("passwd", "the vault has no passphrase to remove")
        case .emptyService:
            return ("service", "it is empty")
        case .attributeTooLarge(let name, let size, let limit):
            return (name, "it is \(size) bytes; the limit is \(limit)")
        case .secretTooLarge(let size, let limit):
            let mebibytes = limit % (1 << 20) == 0 ? " (\(limit >> 20) MiB)" : ""
            return ("secret", "it is \(size) bytes; the limit is \(limit)\(mebibytes)")
        case .sealedFieldUnsupported(let field):
            return (field.rawValue, "the desktop keyring keeps no sealed fields beside the secret")
        }
    }

    /// Why a key file cannot be used, after "cannot use FILE as a credential: ".
    static func words(_ problem: KeyFileProblem) -> String {
        switch problem {
        case .tooShort(let size, let minimum): return "it holds \(size) bytes; a key file needs at least \(minimum) bytes"
        case .tooLong(let limit): return "it holds more than \(limit / 1024) KiB"
        }
    }

    /// What a recipient's text is instead, after "cannot use TEXT as a recipient: ".
    static func words(_ problem: RecipientProblem) -> String {
        let only = "vault seals to X25519 recipients (age1…) only"
        switch problem {
        case .sshKey: return "an ssh key; vault seals to age X25519 recipients (age1…) only; make one with 'vault identity new'"
        case .notAgeRecipient: return "not an age recipient: expected age1 followed by 58 Bech32 characters"
        case .postQuantum: return "a post-quantum age recipient; \(only)"
        case .plugin(let name): return "a recipient of the age plugin \(name); \(only)"
        case .notX25519: return "not an age X25519 recipient: expected age1 followed by 58 Bech32 characters"
        case .lowOrder: return "an X25519 public key of low order, which nothing can be sealed to"
        }
    }

    /// What identity text holds instead, after "cannot use SOURCE as an identity: ".
    static func words(_ problem: IdentityProblem) -> String {
        let only = "vault opens with X25519 identities (AGE-SECRET-KEY-1…) only"
        let expected = "expected AGE-SECRET-KEY-1 followed by 58 upper-case Bech32 characters"
        switch problem {
        case .noIdentity: return "it holds no identity (AGE-SECRET-KEY-1…), only comments or nothing"
        case .sshKey: return "an ssh key; vault opens with age X25519 identities (AGE-SECRET-KEY-1…) only"
        case .plugin: return "an age plugin identity; \(only)"
        case .postQuantum: return "a post-quantum age identity; \(only)"
        case .notAgeIdentity: return "not an age identity: \(expected)"
        case .notX25519: return "not an age X25519 identity: \(expected)"
        case .tooLong(let size): return "it is \(size) bytes, too long for an identity file"
        }
    }

    /// The system call that failed on a path, after "cannot ".
    static func words(_ operation: FileOperation) -> String {
        switch operation {
        case .open: return "open"
        case .read: return "read"
        case .stat: return "stat"
        case .write: return "write"
        case .close: return "close"
        case .fsync: return "fsync"
        case .chmod: return "chmod"
        case .rename: return "rename"
        case .touch: return "touch"
        case .lock: return "lock"
        case .create: return "create"
        case .createDirectory: return "create directory"
        case .makeTemporaryDirectory: return "mkdtemp"
        case .syncDirectory: return "sync directory"
        case .openLockFile: return "open lock file"
        case .useAsDirectory: return "use"
        case .remove: return "remove"
        }
    }

    /// What was asked of keys that may not do it, after "cannot ".
    static func words(_ action: OwnerAction) -> String {
        switch action {
        case .listMembers: return "list members"
        case .addMembers: return "add members"
        case .removeMembers: return "remove members"
        case .printTrustFingerprint: return "print the trust fingerprint"
        case .mergeVault: return "merge the vault"
        case .wipeWholeGroups: return "wipe whole groups"
        case .wipeItems: return "wipe items"
        case .exportItems: return "export items"
        case .importItems: return "import items"
        case .upgradeFormat: return "upgrade the vault's format"
        case .quarantineDamagedGroups: return "quarantine damaged groups"
        case .createGroups: return "create groups"
        case .deleteGroups: return "delete groups"
        case .allowEnvNames: return "set the variable names a group's items may set"
        case .grantCredentials: return "grant credentials"
        case .readExposure: return "read what members and credentials could open"
        case .acceptExposure: return "accept an exposed value"
        case .revokeCredentials: return "revoke credentials"
        case .listGrants: return "list the credentials granted"
        case .copyVault: return "copy the vault"
        case .rekeyVault: return "re-key the vault"
        case .changeKeyslots: return "change the vault's keyslots"
        case .raiseKeyEpoch: return "raise the key epoch"
        case .changeTeamLog: return "change the team log"
        }
    }

    /// One of a merge's files, named where a refusal would name the vault file at `path`.
    static func words(_ input: MergeInput, path: String) -> String {
        switch input {
        case .ours(let origin): return "\(path) (ours: \(origin))"
        case .theirs(let origin): return "their side of the merge (\(origin))"
        case .base: return "the merge base"
        }
    }
}

extension CommandFailure {
    /// The config file (or a value in it) is not one vault reads: `detail` says where and why.
    static func invalidConfig(_ detail: String) -> CommandFailure {
        let report = ErrorReport.invalid("config", detail)
        return CommandFailure(report.status, report.message, hint: report.hint)
    }
}
