import VaultCore
import VaultCrypto

/// `vault update`'s options.
struct UpdateArguments: CommandArguments {
    static let keepSecret = OptionSpec("keep-secret", help: "change attributes only; do not read a new secret")
    static let keep = OptionSpec(
        "keep", value: "N", help: "keep this many of the item's earlier secrets, 0 for none (file backend)", default: "5")
    static let undo = OptionSpec("undo", help: "make the secret the item held before the current one its secret again (file backend)")

    static let options: [OptionSpec] =
        [ItemSelection.service, ItemSelection.account, ItemSelection.group] + ItemDetailOptions.options + [
            ItemDetailOptions.expires("; never removes the expiry"),
            ItemSelection.accessibility("new accessibility class of the item")
        ] + SecretSourceOptions.options + [
            keepSecret, keep, undo, JSONArguments.resultJSON, AddArguments.otp
        ] + SealedFieldOptions.fileOptions + SealedFieldOptions.clearOptions

    var item: ItemSelection
    var details: ItemDetailOptions
    var source: SecretSourceOptions
    /// --notes-file, --otp-file, --clear-notes, --clear-otp: the fields beside the secret.
    var fields: SealedFieldOptions
    /// --keep-secret: change attributes only.
    var keepSecret: Bool
    /// --keep: how many earlier secrets the item keeps.
    var keep: Converted<Int>?
    /// --undo: bring back the secret before the current one.
    var undo: Bool
    /// --otp: the new secret is a one-time code secret.
    var otp: Bool
    var json: Bool

    init(_ options: OptionReader) {
        item = ItemSelection(options, class: true)
        details = ItemDetailOptions(options)
        source = SecretSourceOptions(options)
        fields = SealedFieldOptions(options, clears: true)
        keepSecret = options.flag(Self.keepSecret)
        keep = options.value(Self.keep).map { text in
            Converted(
                text, { Int($0).flatMap { $0 >= 0 ? $0 : nil } },
                else: UsageError("invalid number of secrets to keep \(quoted(text))", hint: "give 0 (none) or more, e.g. --keep 10"))
        }
        undo = options.flag(Self.undo)
        otp = options.flag(AddArguments.otp)
        json = options.flag(JSONArguments.json)
    }
}

/// `vault update`: changes one item's secret and/or attributes. A new secret
/// is read when a source is named (--secret-file, --generate, -w) or when no
/// attribute changes are given; otherwise only the attributes change.
enum UpdateCommand {
    static func run(_ arguments: UpdateArguments, _ invocation: Invocation) throws {
        let options = ItemArguments(arguments.item, invocation)
        let query = Query(service: try options.service(), account: try options.account(), group: try options.group())
        var change = ItemChange(
            accessibility: try options.accessibility(), details: try options.details(arguments.details),
            removesExpiry: arguments.details.removesExpiry)
        try arguments.fields.validate()
        ClassWarning.show(for: change.accessibility, on: invocation.terminal)
        let input = SecretInput(invocation, arguments.source)
        if arguments.undo {
            guard change.isEmpty, !input.hasExplicitSource, !arguments.keepSecret, arguments.keep == nil else {
                throw UsageError(
                    "--undo changes nothing but the secret", hint: "run it alone with -s and -a, then change attributes in another update")
            }
            guard query.service != nil || query.account != nil else {
                throw UsageError("no item named", hint: "name it as SERVICE/ACCOUNT or with -s SERVICE -a ACCOUNT")
            }
            let restored = try VaultAccess(invocation).store().keepingHistory().undo(matching: query)
            invocation.report(
                "restored the secret service \(quoted(restored.service)), account \(quoted(restored.account)) held before; the one it replaced is revision 1",
                json: .object([("action", .string("restored")), ("item", .rendered(ItemOutput.json(restored, now: invocation.now)))]),
                asJSON: arguments.json)
            return
        }
        if arguments.keepSecret, input.hasExplicitSource {
            throw UsageError("--keep-secret and a new secret were both given", hint: "drop one of them")
        }
        change.fields = try arguments.fields.read()
        let readsSecret = input.hasExplicitSource || (!arguments.keepSecret && change.isEmpty)
        try OneTimeCodeInput.checkSource(otp: arguments.otp, generate: arguments.source.generate, keepSecret: arguments.keepSecret)
        let output = try NewSecretOutput(invocation, arguments.source, json: arguments.json)
        let access = VaultAccess(invocation)
        let revisionsKept = try arguments.keep?.get()
        let store = try access.store(revisionsKept: revisionsKept)
        // Only the vault file keeps earlier secrets: the desktop keyring refuses --keep.
        if revisionsKept != nil { _ = try store.keepingHistory() }
        if readsSecret {
            try arguments.source.validate()
            change.secret = try input.read(access: access)
        }
        if arguments.otp, let secret = change.secret { try OneTimeCodeInput.validate(secret) }
        guard !change.isEmpty else {
            throw UsageError("nothing to change", hint: "give a new secret or an attribute such as --label")
        }
        let updated = try store.update(matching: query, with: change)
        output.printSecret(change.secret)
        invocation.report(
            "updated service \(quoted(updated.service)), account \(quoted(updated.account)) in group \(quoted(updated.group.name))",
            json: .object(
                [("action", .string("updated")), ("item", .rendered(ItemOutput.json(updated, now: invocation.now)))]
                    + output.entropyField(change.secret)), asJSON: arguments.json)
    }
}
