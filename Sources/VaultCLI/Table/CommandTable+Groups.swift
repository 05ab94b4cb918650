/// Access groups and scoped credentials: `group`, `grant`, `revoke`.
extension CommandTable {
    static let groupCommand = CommandSpec(
        "group", summary: "list, create or delete access groups, or set the variable names their items may set",
        discussion: """
            list shows every group the keys at hand open, with its item count. create \
            makes an empty group with its own key. delete removes a group, its key and \
            every item in it; a group that holds items is deleted only after a yes at the \
            prompt, or with --yes where there is no terminal. allow-env GROUP NAMES sets \
            the variable names the group's items may set in 'vault env' and 'vault run \
            --env-group' when the job names none (names and PREFIX*, separated by commas; '' clears them): an \
            entry of the team log, which only the owner's trust key signs, taken only by \
            readers that pin the trust fingerprint (--trust, VAULT_TRUST). See docs/RUN.md.
            """,
        positionals: [
            PositionalSpec(
                "ACTION", help: "list, create, delete or allow-env", completion: .values(["list", "create", "delete", "allow-env"])),
            PositionalSpec("NAME", help: "the group to create, delete or set allowed names of", optional: true, completion: .group),
            PositionalSpec(
                "NAMES", help: "allow-env: the names its items may set, NAME,PREFIX*,… ('' for none)", optional: true, completion: .none)
        ],
        examples: [
            ExampleSpec("vault group list", "show the groups and how many items each holds"),
            ExampleSpec("vault group create ci", "make a group for a CI job's secrets"),
            ExampleSpec("vault group delete old-ci --yes", "delete a group and its items from a script"),
            ExampleSpec(
                "vault group allow-env ci 'APP_*,DEPLOY_TOKEN'", "let jobs take ci's APP_ names and DEPLOY_TOKEN without --only or --prefix"
            )
        ],
        run: GroupCommand.run)

    static let identityCommand = CommandSpec(
        "identity", summary: "make an age identity, or print the recipient of one",
        discussion: """
            new writes a new X25519 identity to a new file (0600): --out FILE, or \
            identity.txt in vault's config directory; --out - writes it to stdout. It prints the \
            identity's recipient, the age1 line others seal to it with. show prints the recipient \
            of the identity file named after it or by --identity, VAULT_IDENTITY or the config key identity (a path; \
            VAULT_IDENTITY may hold the identity text itself), else of that default file. Identities and recipients are \
            age's: age-keygen's files work here, and vault's with age.
            """,
        positionals: [
            PositionalSpec("ACTION", help: "new or show", completion: .values(["new", "show"])),
            PositionalSpec("FILE", help: "show: the identity file (instead of --identity)", optional: true, completion: .file)
        ],
        examples: [
            ExampleSpec("vault identity new", "make your identity and print its recipient for the vault's owner"),
            ExampleSpec(
                "vault identity new --out - | gh secret set VAULT_IDENTITY", "make a CI runner's identity, straight into a CI secret"),
            ExampleSpec("vault identity show ~/.config/age/keys.txt", "print the recipient of an age-keygen identity")
        ],
        run: IdentityCommand.run)

    static let memberCommand = CommandSpec(
        "member", summary: "add, list or remove members: age recipients the vault is sealed to",
        discussion: """
            A member opens the vault with its own age identity (--identity or VAULT_IDENTITY) \
            instead of a passphrase or a credential file. add NAME RECIPIENT seals a slot to the \
            recipient (age1, from 'vault identity new' or age-keygen): with no --group, every \
            key but the owner's trust key (a full member reads and writes what the owner does); with --group, the keys \
            'vault grant' gives for those groups, and with --read-only without their write keys. \
            Names follow the rules of group names. list shows each member's name, recipient, \
            scope, read-only and when it was added; the file keeps names and recipients sealed. \
            remove NAME re-keys what the member could open, in the same write: the whole vault \
            for a full member (as rekey does, so it needs the passphrase or key file, but \
            keeping the trust fingerprint), its groups for a scoped one (as revoke does); it \
            prints the new key epoch, for readers that remember nothing to set as \
            VAULT_MIN_EPOCH, then lists the items the member could read, since git history \
            still holds their old ciphertext: rotate those secrets. The other members' slots \
            are sealed again to the new keys. add and remove: the owner only (each is an entry \
            of the team log, which only the owner's trust key signs); list: the owner or a full \
            member. A member reads the vault only with its trust fingerprint pinned \
            (see trust): whoever can write the file can seal a slot, not sign the header. \
            add of a member removed earlier (same name or recipient) re-keys what its new slot \
            opens first, as remove does, so it opens nothing written while it was out (older \
            copies in git keep the retired keys); --fresh-history does that for anyone and \
            also drops the revisions and trash of what it opens, so it reads nothing from \
            before today. Either re-key ends credentials: every scoped credential and session \
            for a full member, the groups' credentials for a scoped one (grant them again).
            """,
        positionals: [
            PositionalSpec("ACTION", help: "add, list or remove", completion: .values(["add", "list", "remove"])),
            PositionalSpec("NAME", help: "the member to add or remove", optional: true),
            PositionalSpec("RECIPIENT", help: "add: the member's age recipient, age1", optional: true)
        ],
        examples: [
            ExampleSpec(
                "vault member add ci-runner \"$(cat runner.pub)\" --group ci --read-only",
                "let a CI runner read the group ci with its identity"),
            ExampleSpec("vault member add alice \"$(cat alice.pub)\"", "make a teammate a full member"),
            ExampleSpec("vault member list --json", "show who the vault is sealed to"),
            ExampleSpec("vault member remove ci-runner", "remove a member and re-key what it could open")
        ],
        run: MemberCommand.run)

    static let trustCommand = CommandSpec(
        "trust", summary: "print the vault's trust fingerprint, for members and CI jobs to pin",
        discussion: """
            Every write of the owner or a full member signs the vault's header with the key \
            epoch's signing key (Ed25519), which the vault's trust key (the owner's alone) \
            vouches for. The trust key's fingerprint, printed here, is what a member reading with \
            its identity pins with --trust, VAULT_TRUST or the config key trust: a vault whose \
            header that key does not vouch for is then refused (exit 51), and so is reading without a \
            pin, since whoever can write the file (push to its repository) can seal a member \
            slot. A passphrase, key file or credential needs no pin: no one can seal a vault to \
            those without holding them. Run it \
            where the vault opens with the passphrase or key file: the fingerprint of a file \
            cannot be taken from the file itself. It changes with rekey and with passwd when it \
            rotates the master key (vault then says so); a member's removal keeps it. \
            --pin FINGERPRINT, on a member's machine, writes the fingerprint the owner gave \
            into the config file (the key trust) without opening the vault.
            """,
        examples: [
            ExampleSpec("vault trust", "print the fingerprint to pin in CI as VAULT_TRUST"),
            ExampleSpec("vault trust --pin 3f9a…", "on a member's machine: pin what the owner printed")
        ],
        run: TrustCommand.run)

    static let grantCommand = CommandSpec(
        "grant", summary: "write a scoped credential that opens some groups only",
        discussion: """
            Writes a scoped credential to a new file (0600): a key file that opens the \
            items of the groups named, and nothing else, of this vault only. Give it to a \
            CI job as --credential FILE, or put the file's content in VAULT_CREDENTIAL. \
            With --read-only it cannot add, update or delete. With --expires it stops \
            working after that time. 'vault revoke --group G' ends every credential of G. \
            With --fresh-history the groups are re-keyed first (as revoke does: their other \
            credentials end) and their revisions and trash dropped, so the new credential \
            opens nothing written before it, in this file or an older copy. Each grant is \
            recorded in the vault file's grant ledger (sealed under the group keys: the owner \
            and full members read it), so the file changes: commit it. --list shows every \
            credential the ledger records, with its id, groups, read-only, expiry and state: \
            live, revoked (a re-key of one of its groups ended it: revoke, rekey, a member's \
            removal) or expired. Credentials granted before the ledger are not in it.
            """,
        examples: [
            ExampleSpec("vault grant --group ci --out ci.cred", "a credential for the CI job's group"),
            ExampleSpec(
                "vault grant --group ci --read-only --expires 30d --out - | gh secret set VAULT_CREDENTIAL",
                "a read-only credential for 30 days, straight into a CI secret"),
            ExampleSpec("vault grant --list", "every credential granted, with its id and state")
        ],
        run: GrantCommand.run)

    static let revokeCommand = CommandSpec(
        "revoke", summary: "end every credential granted for a group",
        discussion: """
            Gives each group named a fresh key and re-seals its items under it. Every \
            credential granted for the group stops working and says it was revoked; the \
            items stay as they are. Grant a new credential to whoever still needs one.
            """,
        examples: [
            ExampleSpec("vault revoke --group ci", "end the CI job's credential, e.g. after a leak"),
            ExampleSpec("vault revoke --group ci && vault grant --group ci --out ci.cred", "replace a credential")
        ],
        destructive: true,
        run: RevokeCommand.run)
}
