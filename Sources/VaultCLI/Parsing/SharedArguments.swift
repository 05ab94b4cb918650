/// The typed arguments of commands whose options are the same: one type each.

/// The options of a command whose only option is --json (`status`, `upgrade`).
struct JSONArguments: CommandArguments {

    static let options: [OptionSpec] = [JSONArguments.json]

    /// --json: print JSON instead of text.
    var json: Bool

    init(_ options: OptionReader) {
        json = options.flag(Self.json)
    }

    static let json = OptionSpec("json", help: "print JSON instead of text")
    /// --json on a command that changes something: its result as one JSON object.
    static let resultJSON = json.with(help: "print what was done as one JSON object on stdout instead of a message")
}

/// The arguments of a command that takes one name of a file and no option (`textconv`, `__generate`).
struct FileArgument: CommandArguments {
    /// The positional FILE; the parser has checked it is there.
    var path: String

    init(_ options: OptionReader) {
        path = options.positionals.first ?? ""
    }
}

/// A command's options as its arguments type words them, for an arguments type several commands share.
protocol OptionWording {
    static var options: [OptionSpec] { get }
}

/// The options of a command that finds items and can answer in JSON (`history`, `trash`, `undelete`),
/// each worded by `Wording`.
struct ItemJSONArguments<Wording: OptionWording>: CommandArguments {
    static var options: [OptionSpec] { Wording.options }

    var item: ItemSelection
    var json: Bool

    init(_ options: OptionReader) {
        item = ItemSelection(options)
        json = options.flag(JSONArguments.json)
    }
}

/// The arguments of a credential helper (`git-credential`, `docker-credential`): the
/// operation its caller asks for, and the group and class of the items it keeps.
struct CredentialHelperArguments: CommandArguments {
    /// The group of the helpers' items (the only option of those that only read: kubectl's, the AWS SDKs').
    static let group = ItemSelection.group.with(help: "access group of the credentials", default: "default")
    static let accessibility = ItemSelection.accessibility(
        "class of credentials stored from now on; a replaced one keeps its class",
        default: "when-unlocked")
    /// Options the helpers share: which group their items live in, and the class of new ones.
    static let options = [group, accessibility]

    /// The operation (the table allows only the helper's own).
    var operation: String
    var item: ItemSelection

    init(_ options: OptionReader) {
        operation = options.positionals.first ?? ""
        item = ItemSelection(group: options.value(ItemSelection.group), accessibility: options.value(ItemSelection.accessibility))
    }
}
