import VaultCore

/// The words for Team/'s errors.
extension ErrorReport {
    /// A TeamError in words.
    static func describe(_ error: TeamError) -> ErrorReport {
        let status = error.status
        switch error {
        case .noSuchMember(let name):
            return ErrorReport(
                status: status, message: "the vault has no member named \(quoted(name))",
                hint: "list the members with 'vault member list'")
        case .outsideMember(let name, let group, let covered):
            return ErrorReport(
                status: status,
                message:
                    "the member \(quoted(name)) does not cover group \(quoted(group.name)); it covers \(covered.map { quoted($0.name) }.joined(separator: ", "))",
                hint: "name one of its groups, or ask the vault's owner for one with 'vault member add' --group \(shellQuoted(group.name))")
        case .readOnlyMember(let name):
            return ErrorReport(
                status: status, message: "the member \(quoted(name)) is read-only and cannot change items",
                hint: "ask the vault's owner to add it again without --read-only, or make the change with the passphrase")
        case .scopedMemberCannot(let name, let action):
            return ErrorReport(
                status: status, message: "the scoped member \(quoted(name)) cannot \(words(action))",
                hint: "unset VAULT_IDENTITY (or drop --identity) and unlock with the passphrase, a key file or a full member's identity")
        case .teamLogDropped(let path, let beforeChanging):
            return ErrorReport(
                status: status,
                message:
                    "\(quoted(path)) drops team log entries of a file it was merged from (a merge resolved by hand?): it would undo a change of the team's members or keys; nothing was \(beforeChanging ? "changed" : "pushed")",
                hint: "undo that merge commit ('git reset --hard HEAD^') and merge again with 'vault sync'")
        case .historyDropsTeamLog(let found):
            return ErrorReport(status: status, message: message(found), hint: hint(found))
        case .onlyOwnerJoins:
            return ErrorReport(
                status: status,
                message: "only the owner joins diverged team logs: both sides changed the team's members or keys, and nothing was merged",
                hint: "ask the vault's owner to run 'vault sync' (passphrase or key file), then sync again")
        case .teamLogReviewNeeded(let review):
            // Every member or entry it would sign is named, so a refusal without a terminal shows what --accept-log would sign.
            return ErrorReport(
                status: status,
                message:
                    "\(review.reason == .join ? "\(review.entries.count) team log \(review.entries.count == 1 ? "entry" : "entries")" : counted(review.entries.count, "member")) would be signed into the team log unseen; nothing was changed",
                details: TeamLogReviewText.lines(review),
                hint: review.unvouched.isEmpty
                    ? "run it on a terminal to review them, or add --accept-log once you know them"
                    : "run it on a terminal to review them, or add --accept-log --accept-member \(review.unvouched.joined(separator: ",")) once you have checked each member marked as not last written here"
            )
        case .trustKeyNeeded(let action):
            return ErrorReport(
                status: status,
                message:
                    "a member's identity cannot \(words(action)): only the owner's trust key signs changes to the team log and the key epoch",
                hint: "ask the vault's owner, or run it with the passphrase or key file (unset VAULT_IDENTITY, or drop --identity)")
        case .identityCannot(let action):
            return ErrorReport(
                status: status,
                message: "an identity cannot \(words(action)): the keyslots are the owner's passphrase, key files and keyring key",
                hint: "run it with the passphrase or key file (unset VAULT_IDENTITY, or drop --identity)")
        }
    }
}
