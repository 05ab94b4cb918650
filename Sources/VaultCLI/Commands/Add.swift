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
        ClassWarning.show(for: accessibility, on: invocation.terminal)
        try OneTimeCodeInput.checkSource(arguments)
        let output = try NewSecretOutput(invocation)
        let access = VaultAccess(invocation)
        let store = try access.store()
        let secret = try SecretInput(invocation).read(access: access)
        if arguments.flag(.otp) { try OneTimeCodeInput.validate(secret) }
        let item = NewItem(service: service, account: account, group: group, accessibility: accessibility,
                           details: try options.details(), secret: secret)
        let outcome = try store.add(item, replaceExisting: arguments.flag(.update))
        let verb = outcome == .added ? "added" : "replaced"
        invocation.terminal.writeErr(
            "vault: \(verb) service \(quoted(service)), account \(quoted(account)) in group \(quoted(group.name)) (\(accessibility.rawValue))\n")
        output.report(secret, service: service, account: account, group: group, accessibility: accessibility)
    }
}
