import VaultCore

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
        service = options.value(Self.service)
        account = options.value(Self.account)
        group = options.value(Self.group)
        name = options.positional(CommandTable.itemName)
        label = readsLabel ? options.value(Self.label) : nil
        accessibility = readsClass ? options.value(Self.accessibility) : nil
    }

    /// A selection by group (and class) alone, for a command that names no item.
    init(group: String?, accessibility: String? = nil) {
        self.group = group
        self.accessibility = accessibility
    }
}

// The options that name or select items, declared once; a command words them its own way with `with(help:)`.
extension ItemSelection {
    static let service = OptionSpec("service", short: "s", value: "SERVICE", help: "service of the item", completion: .service)
    static let account = OptionSpec("account", short: "a", value: "ACCOUNT", help: "account of the item", completion: .account)
    /// Commands that find items search one group only when one is named.
    static let group = OptionSpec(
        "group", value: "GROUP", help: "only items of this access group; every group when none is named",
        completion: .group, environment: .vaultGroup, configKey: .group)
    static let label = OptionSpec("label", short: "l", value: "LABEL", help: "label of the item")
    /// `--class`: the CLI names, or Apple's constant names.
    static let accessibility = OptionSpec(
        "class", value: "CLASS", help: "class of the item",
        completion: .values(Accessibility.allCases.map(\.rawValue)),
        aliases: Accessibility.allCases.map(\.appleConstant))

    /// --class as a command words it.
    static func accessibility(_ help: String, default defaultValue: String? = nil) -> OptionSpec {
        accessibility.with(help: help + "; Apple's kSecAttrAccessible names work too", default: defaultValue)
    }
}
