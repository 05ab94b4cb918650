import VaultCore

/// `vault copy --to PATH`: an independent copy of the vault, under a vault id and keys of its own.
enum CopyCommand {
    static func run(_ invocation: Invocation) throws {
        guard let path = invocation.arguments.value(.to), !path.isEmpty else {
            throw UsageError("missing --to", hint: "name the file to write the copy to with --to PATH")
        }
        let destination = VaultLocation(path: path)
        if try destination.exists {
            throw CommandFailure(.duplicateVault, "\(quoted(path)) exists; nothing was copied", hint: "give --to a path where no file is")
        }
        let kdf = try KDFCost.parse(invocation.arguments.value(.kdfCost))
        let access = VaultAccess(invocation)
        let items = try access.vault().copy(to: destination, kdf: kdf)
        invocation.report("copied the vault to \(quoted(path)) (\(counted(items, "item"))), a vault of its own: its own id, keys and trust fingerprint",
                          json: .object([("copied_to", .string(path)), ("items", .number(items))]))
    }
}
