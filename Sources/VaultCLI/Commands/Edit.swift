import VaultCore
import VaultCrypto

/// `vault edit`'s options.
struct EditArguments: CommandArguments {
    static let options = [ItemSelection.service, ItemSelection.account, ItemSelection.group]

    var item: ItemSelection

    init(_ options: OptionReader) {
        item = ItemSelection(options)
    }
}

/// `vault edit`: opens one item's secret in the user's editor through a
/// file on a tmpfs, wiped and removed afterwards whatever happens, and stores
/// what the editor saved; an unchanged or emptied buffer changes nothing.
/// An item that does not exist is created (asked first on a terminal).
enum EditCommand {
    static func run(_ arguments: EditArguments, _ invocation: Invocation) throws {
        let options = ItemArguments(arguments.item, invocation)
        let query = Query(service: try options.service(), account: try options.account(), group: try options.group())
        let access = VaultAccess(invocation)
        if let reason = access.reasonInteractionIsForbidden {
            throw CommandFailure(
                .interactionNotAllowed, "vault edit opens an editor, and interaction is off here (\(reason))",
                hint: "give the new secret to 'vault update' on stdin instead")
        }
        guard let base = EditBuffer.memoryBackedDirectory(runtimeDirectory: Settings(invocation).value(variable: .xdgRuntimeDir)) else {
            throw CommandFailure(
                .failure, "no memory-backed directory to edit the secret in: neither $XDG_RUNTIME_DIR nor /dev/shm is a tmpfs",
                hint: "set XDG_RUNTIME_DIR to a tmpfs directory such as /run/user/$(id -u); vault never writes a secret to disk")
        }
        let store = try access.store()
        let item: Item
        do {
            item = try store.item(matching: query)
        } catch VaultError.item(.itemNotFound(let missing)) {
            try create(
                Query(service: missing.service, account: missing.account, group: missing.group ?? .default),
                in: store, base: base, invocation: invocation, access: access)
            return
        }
        let edited = try editedSecret(startingFrom: item.secret, in: base, invocation: invocation, nothingDone: "nothing changed")
        let terminal = invocation.terminal
        let names = "service \(quoted(item.attributes.service)), account \(quoted(item.attributes.account))"
        if edited.count == 0 {
            terminal.diagnostics.notice("the buffer was emptied; \(names) was not changed")
            return
        }
        if edited.constantTimeEquals(item.secret) {
            terminal.diagnostics.notice("no change; \(names) was not changed")
            return
        }
        let exact = Query(service: item.attributes.service, account: item.attributes.account, group: item.attributes.group)
        _ = try store.replaceSecret(matching: exact, keepingPrevious: true) { current in
            guard current.secret.constantTimeEquals(item.secret) else {
                throw CommandFailure(
                    .failure, "\(names) changed while it was being edited; nothing was stored",
                    hint: "run 'vault edit' again to edit the new secret")
            }
            return edited
        }
        terminal.diagnostics.notice("updated \(names) in group \(quoted(item.attributes.group.name))")
    }

    /// Creates the item `query` names with what the editor saves into an
    /// empty buffer, in `query`'s group (default when none is named, as add
    /// does); on a terminal only when the person says yes.
    private static func create(
        _ query: Query, in store: ItemStore, base: String, invocation: Invocation,
        access: VaultAccess
    ) throws {
        let service = query.service ?? "", account = query.account ?? "", group = query.group ?? .default
        let names = "service \(quoted(service)), account \(quoted(account)) in group \(quoted(group.name))"
        if access.reasonPromptsAreOff == nil {
            let answer = try invocation.terminal.readLine(prompt: "vault: no item for \(names); create it? [y/N] ")
            guard let answer, ["y", "yes"].contains(answer.lowercased()) else {
                throw CommandFailure(
                    .itemNotFound, "no item for \(names); nothing was created",
                    hint: "answer y to create it, or run 'vault edit' without a terminal")
            }
        }
        let edited = try editedSecret(
            startingFrom: SecretBytes(count: 0), in: base, invocation: invocation, nothingDone: "nothing was created")
        if edited.count == 0 {
            invocation.terminal.diagnostics.notice("the buffer was left empty; \(names) was not created")
            return
        }
        let groupCheck = NewGroupCheck(invocation: invocation, createGroup: false)
        let createsGroup = try groupCheck.createsGroup(group, in: store)
        _ = try store.add(
            NewItem(
                service: service, account: account, group: group, accessibility: .default,
                details: ItemDetails(), secret: edited), replaceExisting: false)
        if createsGroup { invocation.terminal.say("created group \(quoted(group.name))") }
        invocation.terminal.diagnostics.notice("created \(names)")
    }

    /// What the editor saved of `secret`, given it in a buffer under `base` that is wiped whatever
    /// happens; an editor killed or failing stops the command, saying `nothingDone`.
    private static func editedSecret(
        startingFrom secret: SecretBytes, in base: String, invocation: Invocation,
        nothingDone: String
    ) throws -> SecretBytes {
        let buffer = try EditBuffer(in: base, holding: secret)
        defer { buffer.wipe() }
        let editor = EditorProcess(environment: invocation.environment)
        let outcome = try editor.edit(buffer.path)
        if let signal = outcome.vaultSignal {
            throw ChildExitStatus(
                code: 128 + signal,
                failure: CommandFailure(
                    .failure, "stopped by signal \(signal) while the editor ran; \(nothingDone), and the file was wiped"))
        }
        guard outcome.status == 0 else {
            let how = outcome.status > 128 ? "was killed by signal \(outcome.status - 128)" : "exited with status \(outcome.status)"
            throw CommandFailure(
                .failure, "the editor \(quoted(editor.command)) \(how); \(nothingDone)",
                hint: "run 'vault edit' again, or set VISUAL or EDITOR to another editor")
        }
        return trimmingAddedNewline(buffer.contents(limit: ItemLimits.maxSecretBytes), original: secret)
    }

    /// Editors end a saved file with a newline; one that the original did not
    /// have is not part of the secret.
    private static func trimmingAddedNewline(_ edited: SecretBytes, original: SecretBytes) -> SecretBytes {
        let endsWithNewline = { (secret: SecretBytes) in secret.withUnsafeBytes { $0.last == 0x0A } }
        guard endsWithNewline(edited), !endsWithNewline(original) else { return edited }
        var builder = SecretBytesBuilder()
        edited.withUnsafeBytes { builder.append(UnsafeRawBufferPointer(rebasing: $0.dropLast())) }
        return builder.finish()
    }
}
