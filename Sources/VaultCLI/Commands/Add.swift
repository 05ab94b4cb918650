import VaultCore

/// `vault add`: stores a new item; `--update` replaces an existing one.
enum AddCommand {
    static func run(_ invocation: Invocation) throws {
        let options = ItemArguments(invocation)
        let arguments = invocation.arguments
        let service = try options.service()
        let account = try options.account()
        let group = try options.group() ?? .default
        let accessibility = try options.accessibility() ?? .default
        if accessibility.opensWithoutUnlock {
            invocation.terminal.writeErr(
                "vault: warning: class \"\(accessibility.rawValue)\" opens with no unlock at all, for any program that can read your files on this machine; Apple deprecated it for that reason\n")
        }
        let access = VaultAccess(invocation)
        let store = try access.store()
        let secret = try SecretInput(invocation).read(access: access)
        let item = NewItem(service: service, account: account, group: group, accessibility: accessibility,
                           details: options.details(), secret: secret)
        let outcome = try store.add(item, replaceExisting: arguments.flag("update"))
        let verb = outcome == .added ? "added" : "replaced"
        invocation.terminal.writeErr(
            "vault: \(verb) service \(quoted(service)), account \(quoted(account)) in group \(quoted(group.name)) (\(accessibility.rawValue))\n")
    }
}
