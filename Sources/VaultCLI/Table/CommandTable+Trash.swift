/// The trash: what `delete` keeps, and how to bring it back or let it go.
extension CommandTable {
    static let trashCommand = CommandSpec(
        "trash", summary: "list deleted items that can still be brought back",
        discussion: """
            Lists the items delete kept, with the columns of list and the date each was \
            deleted, newest deletion first. An item stays in the trash, with its history, \
            for 30 days (the config key trash-days sets how many); the first write after \
            that purges it. undelete brings one back; wipe --trash empties the trash. \
            wipe, first-run and reset do not keep what they remove. A trashed item is \
            deleted for get, env and run; scan still searches its secrets.
            """,
        examples: [
            ExampleSpec("vault trash", "list what delete kept"),
            ExampleSpec("vault trash --service github --json", "the trashed items of one service, as JSON")
        ],
        run: TrashCommand.run)

    static let undeleteCommand = CommandSpec(
        "undelete", summary: "bring back a deleted item from the trash",
        discussion: """
            Brings back the one item in the trash that matches, with its secret, attributes \
            and history, as a new change (its modified date is now). Refused (exit 45) when \
            an item of the same name was added since: rename or delete that one first.
            """,
        positionals: [itemName],
        examples: [
            ExampleSpec("vault undelete github/ci-bot", "bring back an item deleted by mistake"),
            ExampleSpec("vault undelete -s github -a ci-bot --group ci", "the same, naming the group")
        ],
        run: UndeleteCommand.run)
}
