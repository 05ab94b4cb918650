/// The verbs of other password managers (pass, op, bw, secret-tool, gopass)
/// that have no command of that name in vault, each with the command that does
/// the job here. Checked before the spelling suggestion, so `insert` is told
/// `add` rather than the nearer-spelled `inject`.
enum PeerVerbs {
    /// The hint for `verb`, or nil when no other tool uses it.
    static func hint(for verb: String) -> String? {
        switch verb {
        case "insert", "create", "new", "set", "store":
            return "to add an item, use 'vault add -s SERVICE -a ACCOUNT' (see 'vault help add')"
        case "cp":
            return "vault has no item copy: 'vault get -s SERVICE -a ACCOUNT | vault add -s SERVICE -a NEW' makes one; 'vault mv' renames"
        case "audit":
            return "'vault scan' looks for committed secrets, 'vault verify' checks the vault file (see 'vault help')"
        case "grep", "find", "search":
            return "search the names with 'vault list --search WORD' (secrets are never searched)"
        case "generate", "pwgen":
            return "generate a secret as you add it: 'vault add -s SERVICE -a ACCOUNT --generate' (or 'vault update … --generate')"
        case "read", "cat", "lookup":
            return "print a secret with 'vault get -s SERVICE -a ACCOUNT'"
        case "undo":
            return "'vault update -s SERVICE -a ACCOUNT --undo' brings back an item's previous secret; 'vault undelete' a deleted item"
        case "restore":
            return "'vault undelete' brings an item back from the trash; 'vault update … --undo' a previous secret"
        default:
            return nil
        }
    }
}
