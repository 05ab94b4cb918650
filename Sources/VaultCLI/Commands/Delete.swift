import VaultCore

/// `vault delete`: removes one item, or every match with --all-matching.
enum DeleteCommand {
    static func run(_ invocation: Invocation) throws {
        let query = try ItemArguments(invocation).query()
        guard query.service != nil || query.account != nil || query.label != nil || query.group != nil else {
            throw UsageError("no item named", hint: "name it as SERVICE/ACCOUNT or with -s SERVICE -a ACCOUNT (add --all-matching to delete several)")
        }
        let deleted = try VaultAccess(invocation).store().delete(matching: query, allMatching: invocation.arguments.flag(.allMatching))
        invocation.report("deleted \(counted(deleted.count, "item"))", json: .object([("deleted", .items(deleted, now: invocation.now))]))
    }
}
