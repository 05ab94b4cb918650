// The positional argument several commands share; their options are declared on their arguments types.
extension CommandTable {
    /// The item a command works on, named in one word instead of -s and -a.
    static let itemName = PositionalSpec(
        "SERVICE/ACCOUNT",
        help: "the item, instead of -s and -a: SERVICE/ACCOUNT or GROUP/SERVICE/ACCOUNT, with or without vault:// (as vault run reads it); "
            + "'/', '%', '?', '#' and spaces in a name are percent-encoded, e.g. %2F",
        optional: true, completion: .item)
}
