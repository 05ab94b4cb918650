import VaultCore

/// `vault passwd`'s options: at most one change.
struct PasswdArguments: CommandArguments {
    static let newPassphraseFile = OptionSpec(
        "new-passphrase-file", value: "FILE",
        help: "read the new passphrase from FILE instead of prompting", completion: .file)
    static let addKeyFile = OptionSpec(
        "add-key-file", value: "FILE",
        help: "also unlock with the key in FILE, created if missing", completion: .file)
    static let removeKeyFile = OptionSpec(
        "remove-key-file", value: "FILE",
        help: "no longer unlock with the key in FILE", completion: .file)
    static let removePassphrase = OptionSpec("remove-passphrase", help: "no longer unlock with a passphrase")
    static let addKeyringSlot = OptionSpec(
        "add-keyring-slot", help: "also unlock with a random key kept in the desktop keyring, so a logged-in desktop needs no passphrase")
    static let removeKeyringSlot = OptionSpec(
        "remove-keyring-slot", help: "no longer unlock with the desktop keyring, and delete its key there")

    static let options: [OptionSpec] = [
        newPassphraseFile,
        addKeyFile,
        removeKeyFile,
        removePassphrase,
        addKeyringSlot,
        removeKeyringSlot,
        KDFCost.option,
        OptionSpec(SharedOptions.yes.name, short: "y", help: "confirm destroying items without asking (needed without a terminal)")
    ]

    var newPassphraseFile: String?
    var addKeyFile: String?
    var removeKeyFile: String?
    var removePassphrase: Bool
    var addKeyringSlot: Bool
    var removeKeyringSlot: Bool
    /// --kdf-cost: the scrypt cost of the new passphrase keyslot.
    var kdf: Scrypt.Parameters
    /// --yes: destroy what removing the passphrase destroys without asking.
    var yes: Bool

    init(_ options: OptionReader) throws {
        newPassphraseFile = options.value(PasswdArguments.newPassphraseFile)
        addKeyFile = options.value(PasswdArguments.addKeyFile)
        removeKeyFile = options.value(PasswdArguments.removeKeyFile)
        removePassphrase = options.flag(PasswdArguments.removePassphrase)
        addKeyringSlot = options.flag(PasswdArguments.addKeyringSlot)
        removeKeyringSlot = options.flag(PasswdArguments.removeKeyringSlot)
        kdf = try KDFCost.parse(options.value(KDFCost.option))
        yes = options.flag(SharedOptions.yes)
    }

    func validate() throws {
        let actions: [(OptionName, Bool)] = [
            (PasswdArguments.addKeyFile.name, addKeyFile != nil), (PasswdArguments.removeKeyFile.name, removeKeyFile != nil),
            (PasswdArguments.addKeyringSlot.name, addKeyringSlot),
            (PasswdArguments.removeKeyringSlot.name, removeKeyringSlot), (PasswdArguments.removePassphrase.name, removePassphrase),
            (PasswdArguments.newPassphraseFile.name, newPassphraseFile != nil)
        ]
        let given = actions.filter(\.1).map(\.0)
        guard given.count <= 1 else {
            throw UsageError("--\(given[0].long) and --\(given[1].long) cannot be combined", hint: "make one change per call")
        }
    }
}

/// `vault passwd`: changes the passphrase, or adds or removes a key-file or
/// desktop-keyring keyslot, or removes the passphrase. One change per call.
enum PasswdCommand {
    static func run(_ arguments: PasswdArguments, _ invocation: Invocation) throws {
        let access = VaultAccess(invocation)
        let vault = try access.vault()
        let terminal = invocation.terminal
        if let path = arguments.addKeyFile {
            let created = !KeyFile.exists(path: path)
            let content = created ? try KeyFile.create(path: path) : try KeyFile.read(path: path)
            try vault.addKeyFile(content)
            terminal.say("\(created ? "created key file \(quoted(path)) and " : "")added a key-file keyslot")
        } else if let path = arguments.removeKeyFile {
            let rotated = try vault.removeKeyFile(try KeyFile.read(path: path))
            terminal.say("removed the keyslot of key file \(quoted(path))" + (rotated ? rotatedNote : ""))
            if !rotated { warnNotRotated(terminal, old: "the removed key file") }
        } else if arguments.addKeyringSlot {
            try KeyringSlotChange.add(to: vault, access: access)
        } else if arguments.removeKeyringSlot {
            try KeyringSlotChange.remove(from: vault, access: access)
        } else if arguments.removePassphrase {
            let doomed = try vault.attributes(matching: Query(accessibility: .whenPasscodeSetThisDeviceOnly))
            if !doomed.isEmpty {
                terminal.diagnostics.warning(
                    "removing the passphrase destroys \(doomed.count) when-passcode-set-this-device-only item\(doomed.count == 1 ? "" : "s")"
                )
                try Confirmation.require(
                    invocation, confirmed: arguments.yes, access: access, question: "Destroy them and remove the passphrase?")
            }
            let (destroyed, rotated) = try vault.removePassphrase()
            terminal.say(
                "removed the passphrase; the vault now opens only with its key file"
                    + (destroyed.isEmpty ? "" : "; destroyed \(counted(destroyed.count, "item"))") + (rotated ? rotatedNote : ""))
            if !rotated { warnNotRotated(terminal, old: "the old passphrase") }
        } else {
            let kdf = arguments.kdf
            let passphrase = try access.newPassphrase(fromFile: arguments.newPassphraseFile, purpose: "New passphrase")
            let hadPassphrase = try vault.status(sessionToken: nil).keyslots.contains(.passphrase)
            let rotated = try vault.changePassphrase(to: passphrase, kdf: kdf)
            terminal.say((hadPassphrase ? "changed the passphrase" : "set a passphrase") + (rotated ? rotatedNote : ""))
            if !rotated, hadPassphrase { warnNotRotated(terminal, old: "the old passphrase") }
        }
    }

    private static let rotatedNote =
        " and rotated the master key: every item is re-sealed, and unlock sessions and scoped credentials have ended"

    /// A keyslot change that could not rotate the master key leaves the old secret good for old copies of the file.
    static func warnNotRotated(_ terminal: Terminal, old: String) {
        terminal.diagnostics.warning(
            "the master key was not rotated (another keyslot's secret is not at hand, or items are bound to another machine): "
                + "an old copy of the vault file still opens with \(old); run 'vault rekey' to end that")
    }
}
