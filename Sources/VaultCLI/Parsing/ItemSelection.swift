/// The options that name or select items, as a command's typed arguments
/// hold them: -s, -a, --group and the positional SERVICE/ACCOUNT, and -l and
/// --class for the commands that declare them. `ItemArguments` turns them
/// into a query, with the usage errors that go with them.
struct ItemSelection: Sendable {
    var service: String?
    var account: String?
    /// --group as given; its environment variable and config key are read when the query is made.
    var group: String?
    /// The positional SERVICE/ACCOUNT, for a command that takes it.
    var name: String?
    var label: String?
    /// --class as given.
    var accessibility: String?

    /// Reads -s, -a, --group and the positional name, and -l and --class when `label` and `class` say so.
    init(_ options: OptionReader, label readsLabel: Bool = false, class readsClass: Bool = false) {
        service = options.value(.service)
        account = options.value(.account)
        group = options.value(.group)
        name = options.positional(CommandTable.itemName)
        label = readsLabel ? options.value(.label) : nil
        accessibility = readsClass ? options.value(.class) : nil
    }

    /// A selection by group (and class) alone, for a command that names no item.
    init(group: String?, accessibility: String? = nil) {
        self.group = group
        self.accessibility = accessibility
    }
}
