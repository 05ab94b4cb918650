import VaultCore

/// `vault add`'s options.
struct AddArguments: CommandArguments {
    static let update = OptionSpec("update", short: "U", help: "replace an existing item with the same group, service and account")
    /// --otp of add and update.
    static let otp = OptionSpec(
        "otp",
        help:
            "the secret is a one-time code secret (an otpauth:// URI or a Base32 seed), for 'vault otp'; it is checked before it is stored")

    static let options: [OptionSpec] =
        [
            ItemSelection.service.with(help: "service the item belongs to"),
            ItemSelection.account.with(help: "account the item belongs to")
        ] + ItemDetailOptions.options + [
            ItemDetailOptions.expires,
            ItemSelection.accessibility("when the item can be read", default: "when-unlocked"),
            ItemSelection.group.with(help: "access group of the item, created when new", default: "default"),
            NewGroupCheck.createGroup,
            update,
            JSONArguments.resultJSON,
            otp
        ] + SealedFieldOptions.fileOptions + SecretSourceOptions.options

    var item: ItemSelection
    var details: ItemDetailOptions
    var source: SecretSourceOptions
    /// --notes-file, --otp-file: the fields beside the secret.
    var fields: SealedFieldOptions
    /// --create-group: a new group one letter from an existing one is meant.
    var createGroup: Bool
    /// --update: replace an item that exists.
    var update: Bool
    /// --otp: the secret is a one-time code secret.
    var otp: Bool
    var json: Bool

    init(_ options: OptionReader) {
        item = ItemSelection(options, class: true)
        details = ItemDetailOptions(options)
        source = SecretSourceOptions(options)
        fields = SealedFieldOptions(options, clears: false)
        createGroup = options.flag(NewGroupCheck.createGroup)
        update = options.flag(Self.update)
        otp = options.flag(Self.otp)
        json = options.flag(JSONArguments.json)
    }

    func validate() throws {
        try OneTimeCodeInput.checkSource(otp: otp, generate: source.generate, keepSecret: false)
        try source.validate()
    }
}

/// `vault add`: stores a new item; `--update` replaces an existing one.
enum AddCommand {
    static func run(_ arguments: AddArguments, _ invocation: Invocation) throws {
        let options = ItemArguments(arguments.item, invocation)
        let service = try options.service()
        let account = try options.account()
        let group = try options.group() ?? .default
        let accessibility = try options.accessibility() ?? .default
        ClassWarning.show(for: accessibility, on: invocation.terminal)
        let output = try NewSecretOutput(invocation, arguments.source, json: arguments.json)
        let access = VaultAccess(invocation)
        let store = try access.store()
        let groupCheck = NewGroupCheck(invocation: invocation, createGroup: arguments.createGroup)
        let createsGroup = try groupCheck.createsGroup(group, in: store)
        let fields = try arguments.fields.read()
        let secret = try SecretInput(invocation, arguments.source).read(access: access)
        if arguments.otp { try OneTimeCodeInput.validate(secret) }
        let item = NewItem(
            service: service, account: account, group: group, accessibility: accessibility,
            details: try options.details(arguments.details), secret: secret,
            fields: SealedFields(notes: fields[.notes], oneTimeCode: fields[.oneTimeCode]))
        try groupCheck.warnAboutTwins(service: service, account: account, group: group, in: store)
        let outcome = try store.add(item, replaceExisting: arguments.update)
        if createsGroup, !arguments.json { invocation.terminal.say("created group \(quoted(group.name))") }
        let verb = outcome == .added ? "added" : "replaced"
        output.printSecret(secret)
        // A replaced item is replaced whole: its secret, and the notes or code beside it that were not given again.
        let replacedWhat =
            outcome == .added
            ? ""
            : "; the secret it held is in its history ('vault update --undo' brings it back), "
                + "and its notes and one-time code are what this add gave"
        invocation.report(
            "\(verb) service \(quoted(service)), account \(quoted(account)) in group \(quoted(group.name)) (\(accessibility.rawValue))"
                + replacedWhat,
            json: .object(
                [
                    ("action", .string(verb)), ("service", .string(service)), ("account", .string(account)),
                    ("group", .string(group.name)), ("class", .string(accessibility.rawValue)),
                    ("created_group", .bool(createsGroup))
                ] + output.entropyField(secret)), asJSON: arguments.json)
    }
}
