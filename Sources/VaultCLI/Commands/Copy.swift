import VaultCore

/// `vault copy`'s options.
struct CopyArguments: CommandArguments {
    static let to = OptionSpec("to", value: "PATH", help: "where to write the copy (a file that does not exist)", completion: .file)

    static let options: [OptionSpec] = [
        to,
        KDFCost.option,
        JSONArguments.resultJSON
    ]

    /// --to: where the copy goes.
    var to: String?
    /// --kdf-cost: the scrypt cost of the copy's passphrase keyslot.
    var kdf: Scrypt.Parameters
    var json: Bool

    init(_ options: OptionReader) throws {
        to = options.value(CopyArguments.to)
        kdf = try KDFCost.parse(options.value(KDFCost.option))
        json = options.flag(JSONArguments.json)
    }
}

/// `vault copy --to PATH`: an independent copy of the vault, under a vault id and keys of its own.
enum CopyCommand {
    static func run(_ arguments: CopyArguments, _ invocation: Invocation) throws {
        guard let path = arguments.to, !path.isEmpty else {
            throw UsageError("missing --to", hint: "name the file to write the copy to with --to PATH")
        }
        let destination = VaultLocation(path: path)
        if try destination.exists {
            throw CommandFailure(.duplicateVault, "\(quoted(path)) exists; nothing was copied", hint: "give --to a path where no file is")
        }
        let kdf = arguments.kdf
        let access = VaultAccess(invocation)
        let items = try access.vault().copy(to: destination, kdf: kdf)
        invocation.report(
            "copied the vault to \(quoted(path)) (\(counted(items, "item"))), a vault of its own: its own id, keys and trust fingerprint",
            json: .object([("copied_to", .string(path)), ("items", .number(items))]), asJSON: arguments.json)
    }
}
