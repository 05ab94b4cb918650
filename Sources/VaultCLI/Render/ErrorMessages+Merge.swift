import VaultCore

/// The words for Merge/'s errors.
extension ErrorReport {
    /// A MergeError in words.
    static func describe(_ error: MergeError) -> ErrorReport {
        let status = error.status
        switch error {
        case .noConflict(let key):
            let names = "service \(quoted(key.service)), account \(quoted(key.account)) in group \(quoted(key.group.name))"
            return ErrorReport(
                status: status, message: "\(names) is in no conflict", hint: "list the items in conflict with 'vault conflicts'")
        case .otherSideDeleted(let key, let current):
            let names = "service \(quoted(key.service)), account \(quoted(key.account)) in group \(quoted(key.group.name))"
            let (keep, drop) = current == .ours ? ("--ours", "--theirs") : ("--theirs", "--ours")
            return ErrorReport(
                status: status, message: "the other side of the conflict on \(names) deleted it: there is no other version to read",
                hint: "keep it with 'vault resolve \(keep)' or delete it with 'vault resolve \(drop)' (see 'vault conflicts')")
        case .noConflictNumber(let key, let requested, let count):
            let names = "service \(quoted(key.service)), account \(quoted(key.account)) in group \(quoted(key.group.name))"
            return ErrorReport(
                status: status, message: "\(names) keeps \(counted(count, "conflict")); there is no conflict \(requested)",
                hint: "give a number from 1 to \(count) ('vault conflicts' counts them)")
        case .mergeInput(let input, let refusal):
            return describe(refusal, of: input)
        case .mergeOfAnotherVault(let path):
            return ErrorReport(
                status: status,
                message: "the other side of the merge into \(quoted(path)) is another vault (its vault id differs); nothing was merged",
                hint: "keep one side with 'git checkout --ours' or '--theirs', or find out who replaced the vault file")
        case .otherVersionSealedElsewhere(let key):
            let names = "service \(quoted(key.service)), account \(quoted(key.account)) in group \(quoted(key.group.name))"
            return ErrorReport(
                status: status, message: "the other version of \(names) lives in a group or class these keys do not open",
                hint: "read or resolve it with the owner's keys, or with a credential of the group it moved to")
        case .unsealedVersionOfAnotherGroup(let key, let named):
            let names = "service \(quoted(key.service)), account \(quoted(key.account)) in group \(quoted(key.group.name))"
            return ErrorReport(
                status: status,
                message:
                    "the other version of \(names) names group \(quoted(named.name)), but no key of that group sealed it; nothing was changed",
                hint: "keep ours with 'vault resolve --ours', and add the value to group \(quoted(named.name)) yourself if it is right")
        }
    }
}
