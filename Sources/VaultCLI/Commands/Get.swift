import VaultCore

/// `vault get`'s options.
struct GetArguments: CommandArguments {
    static let showSecret = OptionSpec("show-secret", help: "include the secret in --json output")
    static let field = OptionSpec(
        "field", value: "FIELD",
        help:
            "print one attribute (any key --json shows) and a newline instead of the secret; an attribute the item lacks prints an empty line; notes or otp print that sealed field exactly, as the secret is printed",
        completion: .values(FieldChoice.names), aliases: ["env-name"])
    static let revision = OptionSpec(
        "revision", value: "N", help: "print the secret the item held before its last N changes of secret (1 is the one before the current)"
    )
    static let theirs = OptionSpec(
        "theirs", help: "print the other side's secret of an item a merge left in conflict (see vault conflicts)")
    static let conflict = OptionSpec(
        "conflict", value: "N",
        help: "print the other version the item's N-th conflict keeps (1 is the newest; vault conflicts counts them)")

    static let options = [
        ItemSelection.service, ItemSelection.account, ItemSelection.group, ItemSelection.label, JSONArguments.json, showSecret, field,
        ClipboardOptions.clip, ClipboardOptions.clipTimeout, revision, theirs, conflict
    ]

    var item: ItemSelection
    var json: Bool
    /// --show-secret: the secret in the --json output too.
    var showSecret: Bool
    /// --field: what to print instead of the secret.
    var field: FieldChoice?
    var clipboard: ClipboardOptions
    /// --revision: how many changes back, from 1.
    var revision: Converted<Int>?
    /// --theirs: the other side of a merge conflict.
    var theirs: Bool
    /// --conflict: which conflict's other version, from 1 (the newest).
    var conflict: Converted<Int>?

    init(_ options: OptionReader) {
        item = ItemSelection(options, label: true)
        json = options.flag(JSONArguments.json)
        showSecret = options.flag(Self.showSecret)
        field = options.value(Self.field).flatMap(FieldChoice.init(name:))
        clipboard = ClipboardOptions(options)
        revision = options.value(Self.revision).map { text in
            Converted(
                text, { Int($0).flatMap { $0 >= 1 ? $0 : nil } },
                else: UsageError(
                    "invalid revision \(quoted(text))",
                    hint: "give a number from 1 (the secret before the current one); 'vault history' lists them"))
        }
        theirs = options.flag(Self.theirs)
        conflict = options.value(Self.conflict).map { text in
            Converted(
                text, { Int($0).flatMap { $0 >= 1 ? $0 : nil } },
                else: UsageError(
                    "invalid conflict number \(quoted(text))",
                    hint: "give a number from 1 (the newest conflict); 'vault conflicts' counts them"))
        }
    }

    func validate() throws {
        if showSecret, !json {
            throw UsageError("--show-secret goes with --json", hint: "add --json, or drop --show-secret to print the secret alone")
        }
        if field != nil, let other = [(JSONArguments.json, json), (Self.showSecret, showSecret)].first(where: \.1)?.0 {
            throw UsageError("--field and --\(other.long) both choose what get prints", hint: "give one of them")
        }
        try clipboard.validate(
            others: [(JSONArguments.json, json), (Self.showSecret, showSecret), (Self.field, field != nil)].filter(\.1).map(\.0))
        let conflictNumber = try conflict?.get()
        if theirs || conflictNumber != nil {
            guard field == nil, !clipboard.clip, !json, revision == nil, !(theirs && conflictNumber != nil) else {
                throw UsageError(
                    "--theirs and --conflict print one other version's secret alone",
                    hint: "give one of them, without --json, --field, --clip or --revision")
            }
        }
        if let revision {
            guard field == nil, !clipboard.clip, !json else {
                throw UsageError("--revision prints an earlier secret alone", hint: "drop --json, --field or --clip")
            }
            _ = try revision.get()
        }
    }
}

/// `vault get`: writes one item's secret exactly, or its attributes as JSON.
enum GetCommand {
    static func run(_ arguments: GetArguments, _ invocation: Invocation) throws {
        if let name = arguments.item.name, OpenBaoReference.isReference(name) {
            try OpenBaoGet.run(name, arguments, invocation)
            return
        }
        let field = arguments.field
        let clipboard = try ClipboardCopy.requested(arguments.clipboard, invocation)
        let query = try ItemArguments(arguments.item, invocation).query()
        guard query.service != nil || query.account != nil || query.label != nil else {
            throw UsageError("no item named", hint: "name it as SERVICE/ACCOUNT or with -s SERVICE -a ACCOUNT")
        }
        let store = try VaultAccess(invocation).store()
        let conflictNumber = try arguments.conflict?.get()
        if arguments.theirs || conflictNumber != nil {
            guard let vault = store.fileVault else {
                throw UsageError(
                    "--theirs and --conflict read a merge conflict of the vault file; the desktop keyring has none",
                    hint: "drop --backend secret-service")
            }
            let other = try vault.otherVersion(matching: query, conflict: conflictNumber).item
            other.secret.withUnsafeBytes { invocation.terminal.writeOut($0) }
            if invocation.terminal.stdoutIsTTY { invocation.terminal.writeOut("\n") }
            return
        }
        if let number = try arguments.revision?.get() {
            let (attributes, revisions) = try store.history(matching: query)
            if attributes.hasExpired(at: invocation.now) { throw VaultError.itemExpired(attributes) }
            guard number <= revisions.count else {
                throw VaultError.noRevision(
                    ItemKey(group: attributes.group, service: attributes.service, account: attributes.account),
                    requested: number, kept: revisions.count)
            }
            revisions[number - 1].secret.withUnsafeBytes { invocation.terminal.writeOut($0) }
            if invocation.terminal.stdoutIsTTY { invocation.terminal.writeOut("\n") }
            return
        }
        let item: Item
        do {
            item = try store.item(matching: query)
        } catch VaultError.item(.itemNotFound(let missing)) {
            let error = VaultError.itemNotFound(missing)
            // A scoped credential or member is told only of the groups it opens, never whether the item is elsewhere.
            if let scope = store.fileVault?.scopedCredential?.groups, missing.group == nil {
                let groups = scope.map { quoted($0.name) }.sorted().joined(separator: ", ")
                throw CommandFailure(
                    .itemNotFound, ErrorReport(error).message,
                    hint: NearNames.hint(for: query, in: store)
                        ?? "your credential opens \(scope.count == 1 ? "group" : "groups") \(groups) only; name the item's group with --group"
                )
            }
            guard let hint = NearNames.hint(for: query, in: store) else { throw error }
            throw CommandFailure(.itemNotFound, ErrorReport(error).message, hint: hint)
        }
        let terminal = invocation.terminal
        if let clipboard {
            try clipboard.copy(item.secret, of: item.attributes, invocation: invocation)
            return
        }
        switch field {
        case .attribute(let attribute)?:
            terminal.writeOut(attribute.text(of: item.attributes, now: invocation.now) + "\n")
        case .sealed(let sealed)?:
            item.fields[sealed]?.withUnsafeBytes { terminal.writeOut($0) }
            if terminal.stdoutIsTTY { terminal.writeOut("\n") }
        case nil where arguments.json:
            let shown = arguments.showSecret ? item : nil
            terminal.writeOut(
                ItemOutput.json(
                    item.attributes, secret: shown?.secret, fields: item.fields, showingFields: shown != nil,
                    now: invocation.now) + "\n")
        case nil:
            item.secret.withUnsafeBytes { terminal.writeOut($0) }
            if terminal.stdoutIsTTY { terminal.writeOut("\n") }
        }
    }
}
