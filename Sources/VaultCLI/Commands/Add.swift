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
        let groupCheck = NewGroupCheck(invocation: invocation, createGroup: invocation.arguments.flag(.createGroup))
        let createsGroup = try groupCheck.createsGroup(group, in: store)
        let secret = try SecretInput(invocation).read(access: access)
        if arguments.flag(.otp) { try OneTimeCodeInput.validate(secret) }
        let item = NewItem(service: service, account: account, group: group, accessibility: accessibility,
                           details: try options.details(), secret: secret)
        try groupCheck.warnAboutTwins(service: service, account: account, group: group, in: store)
        let outcome = try store.add(item, replaceExisting: arguments.flag(.update))
        if createsGroup, !invocation.wantsJSON { invocation.terminal.say("created group \(quoted(group.name))") }
        let verb = outcome == .added ? "added" : "replaced"
        output.printSecret(secret)
        invocation.report(
            "\(verb) service \(quoted(service)), account \(quoted(account)) in group \(quoted(group.name)) (\(accessibility.rawValue))",
            json: .object([("action", .string(verb)), ("service", .string(service)), ("account", .string(account)),
                           ("group", .string(group.name)), ("class", .string(accessibility.rawValue)),
                           ("created_group", .bool(createsGroup))] + output.entropyField(secret)))
    }
}
