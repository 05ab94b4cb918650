extension CommandTable {
    static let syncCommand = CommandSpec(
        "sync", summary: "share the vault through git: commit, fetch, merge record by record, push",
        discussion: """
            For a vault file in a git work tree (docs/TEAMS.md). Fetches the branch's remote \
            first (offline, it commits here and pushes nothing); when the remote's team log has entries this \
            clone lacks (a removal, a re-key), merges your changes into the remote's file before \
            committing, so nothing sealed under retired keys is pushed. Commits the vault file \
            alone when it changed (other files stay as they are), merges what others pushed \
            record by record against the merge base, commits the merge and pushes; a push \
            refused because the remote moved on is fetched and merged again, up to 3 times, and \
            nothing is ever force-pushed. A head whose vault file drops team log entries of a \
            commit before it (a revert, an old file checked out, a hand resolution) is never \
            written on or pushed (49); the owner's sync repairs such a remote branch. Items changed on different sides are both \
            kept; an item changed on both sides, or changed on one and deleted on the other, is \
            a conflict: both versions are kept and readable (get --theirs) until 'vault resolve' \
            chooses, and 'vault conflicts' lists them. Members added on either side are kept; a \
            member removed on either side stays removed (what it could open is re-keyed here \
            too); changes from a branch cut before a member was removed are kept as conflicts, \
            named with their commit and author. When git stopped a merge with the vault file in \
            conflict (a git pull without the merge driver, or the driver without keys), sync \
            finishes it from git's index, commits it and pushes. Needs the owner's keys or a full \
            member's identity. --setup commits '*.vault merge=vault diff=vault -text' to \
            .gitattributes (the file's own path when it does not end in .vault) and sets the \
            merge and diff drivers in this clone's git config, so a plain git pull merges record by \
            record and git log -p names items; each clone runs it once. --branch NAME merges \
            nothing: it commits the vault file and pushes HEAD to the remote's branch NAME \
            (new, or one HEAD descends from), for an owner or full member to merge: the way \
            for a scoped writer, whose keys cannot merge, when the remote moved on.
            """,
        examples: [
            ExampleSpec("vault --vault team.vault sync", "commit your changes, merge your teammates', push"),
            ExampleSpec("vault --vault team.vault sync --setup", "once per clone: let git pull merge the vault too"),
            ExampleSpec("vault --vault team.vault sync --branch ci-token", "a scoped writer: push your change for the owner to merge")
        ],
        run: SyncCommand.run)

    static let checkHistoryCommand = CommandSpec(
        "check-history", summary: "refuse commits whose vault file drops team log entries (for hooks and CI)",
        discussion: """
            Walks the commits REVISION names (as git rev-list takes them: A..B, a commit, and \
            --not or --all after '--'), oldest first, and exits 49 on the first whose vault file's \
            team log does not hold the whole log of each of its parents' files: a revert of a \
            removal, an old file checked out and committed, a merge or rebase resolved by hand, \
            a merge -s ours. It needs no key (the log's chain of hashes is in clear), reads no \
            vault of this machine and changes nothing. Without REVISION it walks what the current \
            branch has that its upstream has not (its whole history without an upstream). A \
            server runs it from the pre-receive hook shipped in contrib/ (docs/TEAMS.md), CI as \
            a required check.
            """,
        positionals: [PositionalSpec("REVISION", help: "the commits to walk", optional: true, variadic: true)],
        examples: [
            ExampleSpec("vault check-history", "before pushing: the commits your branch has that its upstream has not"),
            ExampleSpec("vault check-history origin/main..HEAD --file team.vault", "a pull request's commits, in CI"),
            ExampleSpec("vault check-history -- NEW --not --all", "in a pre-receive hook: the commits a push brings")
        ],
        run: CheckHistoryCommand.run)

    static let exposureCommand = CommandSpec(
        "exposure", summary: "list every value a member, a credential or a group's keys could open, through the file's git history",
        discussion: """
            Answers "what must be rotated" after a member leaves or a group's credential leaks: \
            every value the principal could open, in the current file and in every version of it \
            that git holds (every commit reachable from any local ref) - the current secrets, \
            earlier revisions, conflict versions, notes and one-time code secrets, trashed and \
            deleted items - each once (told apart by a keyed digest), with when it was set and \
            replaced, the first and last commit that carries it under a key generation the \
            principal held, and whether it is live (still a value of an item of the current file) \
            or rotated. --member NAME: the key generations that member's slot carried in any \
            version; --grant ID: a credential 'vault grant --list' shows, its groups' key \
            generations while their key was the one it was granted under, expired or not (its \
            keys open what they open; vault alone checks the expiry); --group G: every key \
            generation group G had (what any credential of it could open). --credential ID \
            with a grant id (16 hex digits) naming no file is taken as --grant ID; any other \
            --credential is the global one, a credential file that unlocks. Each sealed record is decrypted once, not once per commit. Outside git \
            it reads the file alone and says so. Never prints a secret. check exits 1 while a \
            live value could be read by a member that has since been removed, or by a \
            credential revoked or expired (one line per value), and 0 once each is rotated to a \
            value none of them saw: the gate after an \
            offboarding (docs/TEAMS.md, "Offboarding"); a re-key alone, with no one losing \
            access, makes nothing red. accept ITEM --reason TEXT signs, with the owner's trust \
            key, that the values the item holds now stay: exposure shows them accepted with the \
            reason and check passes them; any change to the item after it ends the acceptance. The \
            acceptances are kept in VAULT.accepted beside the vault file, to commit with it (the \
            reason is in clear there: write no secret in it). Values sealed under a -this-device-only class are left out \
            (they need this machine's device key, which no member or credential holds). Needs \
            the owner's keys or a full member's identity.
            """,
        positionals: [
            PositionalSpec(
                "ACTION",
                help:
                    "check: exit 1 while a value of a removed member or an ended credential is live; accept: sign that an item's values stay",
                optional: true, completion: .values(["check", "accept"])),
            PositionalSpec("ITEM", help: "accept: the item, as GROUP/SERVICE/ACCOUNT or SERVICE/ACCOUNT", optional: true)
        ],
        examples: [
            ExampleSpec("vault exposure --member alice", "after removing alice: what she could read, live or rotated"),
            ExampleSpec("vault exposure --grant 3f9a0c1d2e4b5a69 --json", "after a credential leaked: what it could open, as JSON"),
            ExampleSpec("vault exposure --group ci --json", "every value any credential of ci could open, as JSON"),
            ExampleSpec("vault exposure check", "in CI after an offboarding: fail until every exposed value is rotated"),
            ExampleSpec("vault exposure accept ci/legacy/api --reason 'vendor rotates it in March'", "let one live value stay, signed")
        ],
        run: ExposureCommand.run)

    static let mergeDriverCommand = CommandSpec(
        "merge-driver", summary: "git's merge driver for vault files (set by sync --setup)",
        discussion: """
            git runs it as 'vault merge-driver %O %A %B %P' for a file whose attributes say \
            merge=vault: it merges THEIRS into OURS record by record against BASE, as sync does, \
            and writes the result to OURS (exit 0). When it cannot (the vault is locked and \
            nothing may ask, the keys are a scoped member's, or the merge would re-key and drop \
            something), it leaves git a conflict (exit 1) and says to run 'vault sync', which \
            finishes the merge. BASE is empty when both sides added the file. In a rebase git \
            swaps the sides: OURS is the upstream.
            """,
        positionals: [
            PositionalSpec("BASE", help: "the merge base's version (git's %O)", completion: .file),
            PositionalSpec("OURS", help: "this side's version, where the result goes (%A)", completion: .file),
            PositionalSpec("THEIRS", help: "the other side's version (%B)", completion: .file),
            PositionalSpec("PATH", help: "the file's path in the repository (%P), for messages", optional: true, completion: .file)
        ],
        examples: [
            ExampleSpec("git config merge.vault.driver 'vault merge-driver %O %A %B %P'", "what sync --setup sets")
        ],
        run: MergeDriverCommand.run)

    static let textconvCommand = CommandSpec(
        "textconv", summary: "git's diff driver for vault files (set by sync --setup)",
        discussion: """
            git runs it as 'vault textconv FILE' for a file whose attributes say diff=vault, so \
            git diff, git log -p and git show name the items a commit added, changed or removed. \
            It prints one line per item: group, service, account, label, modified date and a \
            12-digit digest of the secret, an HMAC under a key only readers of the group hold, \
            never the secret. It opens the file with a session, a key file, a scoped credential \
            or a member's identity under its pinned trust, never asks and never runs a \
            passphrase's KDF; without such keys it \
            prints the item ids and counts the file shows to anyone. It records nothing (no seen \
            counters, no use of the session) and reads old versions the rollback guard would \
            refuse, since history is made of them. It exits 0 whatever the file, so git never fails.
            """,
        positionals: [PositionalSpec("FILE", help: "the version of the vault file git wrote to a temporary file", completion: .file)],
        examples: [
            ExampleSpec("vault textconv team.vault", "what git runs for each version of a vault file it diffs (diff.vault.textconv)")
        ],
        run: TextConvCommand.run)

    static let conflictsCommand = CommandSpec(
        "conflicts", summary: "list the items a merge left in conflict",
        discussion: """
            One line per item in conflict, by its newest conflict: the item's service, account \
            and group, which side its current version came from, what the other side did \
            (changed it, or deleted it) and where that came from, and how many older versions \
            earlier merges left. get prints the current version (with a warning), get --theirs \
            the other; 'vault resolve' chooses. Prints nothing when there is no conflict.
            """,
        examples: [
            ExampleSpec("vault conflicts", "what the last sync could not merge")
        ],
        run: ConflictsCommand.list)

    static let resolveCommand = CommandSpec(
        "resolve", summary: "settle an item's conflict with one side's version",
        discussion: """
            --ours keeps the version of the side that merged (the current one, unless that side \
            had deleted the item: then the item goes); --theirs takes the other side's (or \
            deletes the item when the other side deleted it). The conflict is gone after either; \
            commit and share it with 'vault sync'. In a rebase git's sides are swapped: ours is \
            the upstream. 'vault conflicts' says which side each version came from.
            """,
        positionals: [itemName],
        examples: [
            ExampleSpec("vault resolve -s github -a ci-bot --theirs", "take the teammate's token")
        ],
        destructive: true,
        run: ConflictsCommand.resolve)
}
