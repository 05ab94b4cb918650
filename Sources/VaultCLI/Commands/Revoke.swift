import VaultCore

/// `vault revoke`: rotates group keys so every credential granted for them ends.
enum RevokeCommand {
    static func run(_ invocation: Invocation) throws {
        let groups = try ItemArguments(invocation).namedGroups(purpose: "whose credentials end")
        let vault = try VaultAccess(invocation).vault()
        for group in groups {
            let count = try vault.revoke(group: group)
            invocation.terminal.writeErr("vault: revoked every credential of group \(quoted(group.name)); re-sealed \(count) item\(count == 1 ? "" : "s") under a new group key\n")
        }
    }
}
