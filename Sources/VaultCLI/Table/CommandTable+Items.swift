import VaultCore

// Commands on items: init, add, get, history, otp, update, edit, delete, rename, list.
extension CommandTable {
    static let initCommand = CommandSpec(
        "init", summary: "create a new vault",
        discussion: """
            Creates an empty vault file at the vault path, in a directory created 0700. \
            It opens with a passphrase, asked twice on a terminal or read from \
            --passphrase-file, or with --key-file, with a key file; a key file that does \
            not exist yet is created with 32 random bytes. Fails if a vault already \
            exists there.
            """,
        examples: [
            ExampleSpec("vault init", "create the default vault, asking for a passphrase twice"),
            ExampleSpec(
                "vault --vault ./ci.vault --key-file ./ci.key init",
                "create a vault for a CI job, and the key file that opens it"),
            ExampleSpec(
                "vault init --passphrase-file pass.txt --kdf-cost testing",
                "create a vault quickly in a test suite")
        ],
        run: InitCommand.run)

    static let addCommand = CommandSpec(
        "add", summary: "add a secret item",
        discussion: """
            Stores a new item under its access group, service and account. The secret \
            comes from stdin when it is not a terminal, from a no-echo prompt asked \
            twice when it is, from --secret-file, or from --generate. Adding an item \
            whose group, service and account already exist fails with exit 45 unless \
            --update is given.
            """,
        positionals: [itemName],
        examples: [
            ExampleSpec(
                #"printf %s "$TOKEN" | vault add -s github -a ci-bot"#,
                "store a token from stdin, where ps cannot see it"),
            ExampleSpec(
                "vault add -s github -a alice",
                "store a secret typed at a no-echo prompt"),
            ExampleSpec(
                "vault add -s postgres -a admin --generate --length 40 --charset printable",
                "generate and store a random 40-character password"),
            ExampleSpec(
                "vault add -s bank -a me --generate --length 20 --require upper,lower,digit,symbol --no-ambiguous --print",
                "generate a password that meets a site's rules, and show it once"),
            ExampleSpec(
                "vault add -s laptop -a disk --generate --words 6 --separator ' '",
                "generate a six-word passphrase"),
            ExampleSpec(
                "vault add --otp -s github -a alice --secret-file otpauth-uri.txt",
                "store the otpauth:// URI of a site's two-factor QR code, for 'vault otp'"),
            ExampleSpec(
                "vault add -U -s backup -a cron --class after-first-unlock --secret-file backup.key",
                "replace an item that a cron job may read after the first unlock")
        ],
        run: AddCommand.run)

    static let getCommand = CommandSpec(
        "get", aliases: ["show"], summary: "print the secret of one item",
        discussion: """
            Finds the one item that matches the query and writes its secret to stdout \
            exactly, adding a newline only when stdout is a terminal. No match exits \
            with 44; a query that matches several items is an error that lists them. \
            With --json it prints the item's attributes, and its secret only with \
            --show-secret. --revision N prints the secret the item held N changes ago \
            (see 'vault history'). With --clip the secret goes to the clipboard instead, and a \
            process in the background clears it after --clip-timeout if it still holds the \
            secret (with OSC 52, which cannot read the clipboard, it clears it whatever it \
            holds); --clip is refused when CI is set or no clipboard is within reach.
            """,
        positionals: [itemName],
        examples: [
            ExampleSpec("vault get -s github -a ci-bot", "print a secret"),
            ExampleSpec("vault get github/ci-bot", "the same, naming the item as SERVICE/ACCOUNT"),
            ExampleSpec(
                #"GITHUB_TOKEN="$(vault get -s github -a ci-bot)" ./deploy.sh"#,
                "pass a secret to one command through its environment"),
            ExampleSpec("vault get -s github -a ci-bot --json", "show an item's attributes without its secret"),
            ExampleSpec("vault get -s github -a ci-bot --field expires", "print when an item expires, for a script"),
            ExampleSpec("vault get -s bank -a me --clip", "copy a password to the clipboard for 45 seconds"),
            ExampleSpec("vault get -s github -a ci-bot --revision 1", "print the token the item held before its last rotation")
        ],
        run: GetCommand.run)

    static let historyCommand = CommandSpec(
        "history", summary: "list the earlier secrets of one item, never the secrets",
        discussion: """
            Lists the secrets that update, add --update and edit replaced, newest first: each \
            revision's number (for get --revision and update --undo), when it was set and when \
            it was replaced. They are kept in the item's record, sealed like its secret, re-sealed \
            by rekey and removed with the item; update keeps 5 by default (--keep N). A vault \
            kept in git still has older ones in git's history. The file backend only.
            """,
        positionals: [itemName],
        examples: [
            ExampleSpec("vault history -s github -a ci-bot", "list the tokens an item held before")
        ],
        run: HistoryCommand.run)

    static let otpCommand = CommandSpec(
        "otp", summary: "print the current one-time code of an item",
        discussion: """
            Prints the one-time code of an item stored with 'vault add --otp': its secret is an \
            otpauth://totp/ or otpauth://hotp/ URI (SHA1, SHA256 or SHA512; 6 to 8 digits; any \
            period) or a Base32 seed (TOTP, SHA1, 6 digits, 30 seconds). A TOTP code is for now, \
            or for --at. An HOTP item gives the code of its counter and stores the counter one \
            higher in the same write, so no code is given twice: each use changes the vault, and \
            two clones of a vault shared through git that both use one HOTP item will conflict. \
            In references of run and inject, vault://SERVICE/ACCOUNT?otp stands for the item's code.
            """,
        positionals: [itemName],
        examples: [
            ExampleSpec("vault otp github/alice", "print the code to type at GitHub's two-factor prompt"),
            ExampleSpec("vault otp -s github -a alice --at \"$(date -d '+30 sec' +%s)\"", "print the next code"),
            ExampleSpec("vault otp github/alice --clip", "copy the code to the clipboard"),
            ExampleSpec(
                "[ \"$(vault otp github/alice --remaining)\" -ge 5 ] || sleep 5; vault otp github/alice",
                "wait for a fresh code when the current one is about to expire")
        ],
        run: OneTimeCodeCommand.run)

    static let updateCommand = CommandSpec(
        "update", summary: "change the secret or attributes of one item",
        discussion: """
            Selects the one item that matches the query, and \
            replaces its secret (read as for add) and any attributes given. With \
            --keep-secret only the attributes change and no secret is read; --notes-file, \
            --otp-file, --clear-notes and --clear-otp change the fields beside the secret and \
            read no secret either. The secret it \
            replaces is kept (5 of them per item; --keep N, 0 for none); --undo swaps the \
            current secret with the one before it.
            """,
        positionals: [itemName],
        examples: [
            ExampleSpec(
                #"printf %s "$NEW_TOKEN" | vault update -s github -a ci-bot"#,
                "rotate a token"),
            ExampleSpec(
                #"vault update -s github -a ci-bot --keep-secret -l "GitHub CI token""#,
                "change a label and keep the secret"),
            ExampleSpec(
                "vault update -s postgres -a admin --generate",
                "replace a password with a new random one"),
            ExampleSpec("vault update -s github -a ci-bot --undo", "go back to the token before the last rotation"),
            ExampleSpec("vault update github/alice --otp-file totp.txt", "keep a one-time code secret beside the password, for vault otp")
        ],
        run: UpdateCommand.run)

    static let editCommand = CommandSpec(
        "edit", summary: "change the secret of one item in an editor",
        discussion: """
            Opens the secret of the one item that matches in $VISUAL, else $EDITOR, else vi (run \
            through sh -c, as git does), and stores what the editor saved. The file is created 0600 \
            in a new 0700 directory in $XDG_RUNTIME_DIR when that is a tmpfs, else in /dev/shm; with \
            neither, edit refuses rather than write the secret to a disk. The file, and anything the \
            editor left beside it, is overwritten with zeros and removed afterwards, also when the \
            editor fails or vault gets TERM or HUP; VIMINIT turns off vim's swap, undo, backup and \
            viminfo files. A newline the editor added at the end is dropped when the secret had none. \
            An unchanged or emptied buffer changes nothing and says so; an editor that fails changes \
            nothing. An item that does not exist is created in the group named (default when none is), \
            with the class when-unlocked, from an empty buffer: on a terminal after asking y/N, \
            without one at once. Refused when CI, VAULT_NO_INTERACTION or --no-interaction is set.
            """,
        positionals: [itemName],
        examples: [
            ExampleSpec("vault edit -s postgres -a admin", "change a password in the editor"),
            ExampleSpec("EDITOR=nano vault edit -s notes -a recovery-codes", "edit a multi-line secret in nano"),
            ExampleSpec("vault edit notes/wifi", "write a new item's secret in the editor")
        ],
        run: EditCommand.run)

    static let deleteCommand = CommandSpec(
        "delete", aliases: ["rm"], summary: "delete items",
        discussion: """
            Deletes the one item that matches the query. A query that matches several \
            items is an error that lists them, unless --all-matching is given. On a terminal \
            it names what it is about to delete and asks first (y/N) unless --yes; declining \
            exits 128 and changes nothing. Without a terminal it deletes without asking.
            """,
        positionals: [itemName],
        examples: [
            ExampleSpec("vault delete -s github -a ci-bot", "delete one item"),
            ExampleSpec("vault delete --group ci --all-matching", "delete every item of the group ci")
        ],
        destructive: true,
        run: DeleteCommand.run)

    static let renameCommand = CommandSpec(
        "rename", aliases: ["mv"], summary: "give one item a new service, account or group",
        discussion: """
            Selects the one item that matches the query and gives it a new service, \
            account and/or group, keeping its secret, attributes and created date, in \
            one atomic write. Refused (exit 45) when an item already has the new name. \
            A new group is created, as with add. An item moved to another group leaves \
            its earlier secrets (its history) behind, and says so, unless --keep-history: \
            the new group's readers may be others than the old group's.
            """,
        positionals: [itemName],
        examples: [
            ExampleSpec("vault rename -s github -a ci-bot --to-account deploy-bot", "rename an item's account"),
            ExampleSpec("vault rename -s github -a ci-bot --to-group ci", "move an item to the group ci"),
            ExampleSpec("vault rename ci/github/ci-bot --to-group default", "move it back, naming it as GROUP/SERVICE/ACCOUNT")
        ],
        run: RenameCommand.run)

    static let listCommand = CommandSpec(
        "list", aliases: ["ls"], summary: "list items, never their secrets",
        discussion: """
            Prints the group, service, account, class, modified date, expiry and label of every \
            item that matches the filters, sorted by group, service and account, one per line: \
            in aligned columns under a header on a terminal, and for a program (stdout not a \
            terminal) as the same columns separated by one TAB, without header or padding, the \
            expiry column always there, a TAB, newline or backslash in a name written \\t, \\n, \\\\. \
            With --json, as JSON. Secrets are never printed.
            """,
        positionals: [itemName],
        examples: [
            ExampleSpec("vault list", "list every item"),
            ExampleSpec("vault list --search github", "find items by part of a name or label"),
            ExampleSpec("vault list --service github", "list the accounts stored for one service"),
            ExampleSpec("vault list --group ci --json", "list one group's items as JSON")
        ],
        run: ListCommand.run)
}
