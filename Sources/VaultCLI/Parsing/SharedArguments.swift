/// The typed arguments of commands whose options are the same: one type each.

/// The options of a command whose only option is --json (`status`, `upgrade`).
struct JSONArguments: CommandArguments {
    /// --json: print JSON instead of text.
    var json: Bool

    init(_ options: OptionReader) {
        json = options.flag(.json)
    }
}

/// The arguments of a command that takes one name of a file and no option (`textconv`, `__generate`).
struct FileArgument: CommandArguments {
    /// The positional FILE; the parser has checked it is there.
    var path: String

    init(_ options: OptionReader) {
        path = options.positionals.first ?? ""
    }
}

/// The options of a command that finds one item and can answer in JSON (`history`, `trash`, `undelete`).
struct ItemJSONArguments: CommandArguments {
    var item: ItemSelection
    var json: Bool

    init(_ options: OptionReader) {
        item = ItemSelection(options)
        json = options.flag(.json)
    }
}

/// The arguments of a credential helper (`git-credential`, `docker-credential`): the
/// operation its caller asks for, and the group and class of the items it keeps.
struct CredentialHelperArguments: CommandArguments {
    /// The operation (the table allows only the helper's own).
    var operation: String
    var item: ItemSelection

    init(_ options: OptionReader) {
        operation = options.positionals.first ?? ""
        item = ItemSelection(group: options.value(.group), accessibility: options.value(.class))
    }
}
