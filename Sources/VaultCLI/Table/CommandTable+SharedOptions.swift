import VaultCore

// Options shared by several commands, for the commands whose table entry still lists its options:
// each is declared once on the type that reads it.
extension CommandTable {
    static func service(_ help: String) -> OptionSpec {
        ItemSelection.service.with(help: help)
    }

    static func account(_ help: String) -> OptionSpec {
        ItemSelection.account.with(help: help)
    }

    /// The item a command works on, named in one word instead of -s and -a.
    static let itemName = PositionalSpec(
        "SERVICE/ACCOUNT",
        help: "the item, instead of -s and -a: SERVICE/ACCOUNT or GROUP/SERVICE/ACCOUNT, with or without vault:// (as vault run reads it); "
            + "'/', '%', '?', '#' and spaces in a name are percent-encoded, e.g. %2F",
        optional: true, completion: .item)

    /// Commands that find items search one group only when one is named.
    static let searchGroupHelp = ItemSelection.group.help

    static func group(_ help: String, default defaultValue: String? = nil) -> OptionSpec {
        ItemSelection.group.with(help: help, default: defaultValue)
    }

    static func accessibility(_ help: String, default defaultValue: String? = nil) -> OptionSpec {
        ItemSelection.accessibility(help, default: defaultValue)
    }

    static let json = JSONArguments.json

    /// Globs over names, for list and wipe; -s and -a stay exact, since names may hold `*`.
    static let nameGlobs = NameFilter.globs

    /// --json on a command that changes something: its result as one JSON object.
    static let resultJSON = JSONArguments.resultJSON

    static let kdfCost = KDFCost.option
}
