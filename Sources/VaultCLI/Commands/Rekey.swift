import VaultCore

/// `vault rekey`'s options.
struct RekeyArguments: CommandArguments {

    static let options: [OptionSpec] = [
        KDFCost.option,
        OptionSpec(SharedOptions.yes.name, short: "y", help: "confirm dropping keyslots or other machines' items without asking"),
        JSONArguments.resultJSON
    ]

    /// --kdf-cost: the scrypt cost of the new passphrase keyslot.
    var kdf: Scrypt.Parameters
    /// --yes: drop what cannot be re-made without asking.
    var yes: Bool
    var json: Bool

    init(_ options: OptionReader) throws {
        kdf = try KDFCost.parse(options.value(KDFCost.option))
        yes = options.flag(SharedOptions.yes)
        json = options.flag(JSONArguments.json)
    }
}

/// `vault rekey`: every key of the vault replaced, every item re-sealed.
enum RekeyCommand {
    static func run(_ arguments: RekeyArguments, _ invocation: Invocation) throws {
        let access = VaultAccess(invocation)
        let vault = try access.vault()
        let terminal = invocation.terminal
        let outcome = try vault.rekey(kdf: arguments.kdf) { plan in
            try RekeyCommand.confirm(plan, confirmed: arguments.yes, invocation, access: access)
        }
        if arguments.json {
            terminal.writeOut(
                JSONValue.object([
                    ("key_epoch", .number(Int(outcome.keyEpoch))), ("resealed", .number(outcome.resealed)),
                    ("sessions_ended", .number(outcome.sessionsEnded)),
                    ("dropped_keyslots", .array(outcome.dropped.droppedKeyslots.map { .string($0.name) })),
                    (
                        "dropped_items",
                        .number(outcome.dropped.itemsBoundElsewhere.reduce(0) { $0 + $1.count } + outcome.dropped.itemsNeedingPassphrase)
                    )
                ]).text + "\n")
            return
        }
        terminal.say(
            "re-keyed the vault (key epoch \(outcome.keyEpoch)): re-sealed \(counted(outcome.resealed, "item")), "
                + "ended \(counted(outcome.sessionsEnded, "unlock session")); scoped credentials no longer open it: grant them again")
    }

    /// Says what a re-key drops (keyslots it cannot re-make, items it cannot re-seal here) and asks
    /// before it goes on: for `rekey` and for `member remove` of a full member, which re-keys.
    static func confirm(_ plan: RekeyPlan, confirmed: Bool, _ invocation: Invocation, access: VaultAccess) throws {
        let terminal = invocation.terminal
        for kind in plan.droppedKeyslots {
            terminal.diagnostics.warning("the \(kind.name) keyslot cannot be re-made without its secret and is dropped")
        }
        for count in plan.itemsBoundElsewhere {
            terminal.diagnostics.warning(
                "\(counted(count.count, "item")) of group \(quoted(count.group)), class \(count.accessibility.rawValue), "
                    + "are bound to another machine's device key, cannot be re-sealed here, and are dropped")
        }
        if plan.itemsNeedingPassphrase > 0 {
            terminal.diagnostics.warning(
                "\(counted(plan.itemsNeedingPassphrase, "when-passcode-set-this-device-only item")) "
                    + "cannot be kept without a passphrase keyslot and \(plan.itemsNeedingPassphrase == 1 ? "is" : "are") destroyed")
        }
        try Confirmation.require(invocation, confirmed: confirmed, access: access, question: "Re-key and drop what is listed above?")
    }
}
