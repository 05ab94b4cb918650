import VaultCore
import VaultCrypto

/// `vault update`: changes one item's secret and/or attributes. A new secret
/// is read when a source is named (--secret-file, --generate, -w) or when no
/// attribute changes are given; otherwise only the attributes change.
enum UpdateCommand {
    static func run(_ invocation: Invocation) throws {
        let arguments = invocation.arguments
        let options = ItemArguments(invocation)
        let query = Query(service: try options.service(), account: try options.account(), group: try options.group())
        var change = ItemChange(accessibility: try options.accessibility(), details: try options.details(),
                                removesExpiry: options.removesExpiry)
        ClassWarning.show(for: change.accessibility, on: invocation.terminal)
        let input = SecretInput(invocation)
        if arguments.flag(.undo) {
            guard change.isEmpty, !input.hasExplicitSource, !arguments.flag(.keepSecret), arguments.value(.keep) == nil else {
                throw UsageError("--undo changes nothing but the secret", hint: "run it alone with -s and -a, then change attributes in another update")
            }
            guard query.service != nil || query.account != nil else { throw UsageError("no item named", hint: "name it as SERVICE/ACCOUNT or with -s SERVICE -a ACCOUNT") }
            let restored = try VaultAccess(invocation).store().keepingHistory().undo(matching: query)
            invocation.report(
                "restored the secret service \(quoted(restored.service)), account \(quoted(restored.account)) held before; the one it replaced is revision 1",
                json: .object([("action", .string("restored")), ("item", .rendered(ItemOutput.json(restored, now: invocation.now)))]))
            return
        }
        if arguments.flag(.keepSecret), input.hasExplicitSource {
            throw UsageError("--keep-secret and a new secret were both given", hint: "drop one of them")
        }
        let readsSecret = input.hasExplicitSource || (!arguments.flag(.keepSecret) && change.isEmpty)
        try OneTimeCodeInput.checkSource(arguments)
        let output = try NewSecretOutput(invocation)
        let access = VaultAccess(invocation)
        let store = try access.store()
        if let text = arguments.value(.keep) {
            guard let kept = Int(text), kept >= 0 else {
                throw UsageError("invalid number of secrets to keep \(quoted(text))", hint: "give 0 (none) or more, e.g. --keep 10")
            }
            try store.keepingHistory().revisionsKept = kept
        }
        if readsSecret { change.secret = try input.read(access: access) }
        if arguments.flag(.otp), let secret = change.secret { try OneTimeCodeInput.validate(secret) }
        guard !change.isEmpty else {
            throw UsageError("nothing to change", hint: "give a new secret or an attribute such as --label")
        }
        let updated = try store.update(matching: query, with: change)
        output.printSecret(change.secret)
        invocation.report(
            "updated service \(quoted(updated.service)), account \(quoted(updated.account)) in group \(quoted(updated.group.name))",
            json: .object([("action", .string("updated")), ("item", .rendered(ItemOutput.json(updated, now: invocation.now)))]
                + output.entropyField(change.secret)))
    }
}
