/// Access groups and scoped credentials: `group`, `grant`, `revoke`.
extension CommandTable {
    static let groupCommand = CommandSpec(
        "group", summary: "list, create or delete access groups",
        discussion: """
            list shows every group the keys at hand open, with its item count. create \
            makes an empty group with its own key. delete removes a group, its key and \
            every item in it; a group that holds items is deleted only after a yes at the \
            prompt, or with --yes where there is no terminal.
            """,
        options: [
            json,
            OptionSpec(.yes, short: "y", help: "delete a group that holds items without asking (needed without a terminal)"),
        ],
        positionals: [
            PositionalSpec("ACTION", help: "list, create or delete", completion: .values(["list", "create", "delete"])),
            PositionalSpec("NAME", help: "the group to create or delete", optional: true, completion: .group),
        ],
        examples: [
            ExampleSpec("vault group list", "show the groups and how many items each holds"),
            ExampleSpec("vault group create ci", "make a group for a CI job's secrets"),
            ExampleSpec("vault group delete old-ci --yes", "delete a group and its items from a script"),
        ],
        run: { try GroupCommand.run($0) })

    static let identityCommand = CommandSpec(
        "identity", summary: "make an age identity, or print the recipient of one",
        discussion: """
            new writes a new X25519 identity to a new file (0600): --out FILE, or \
            identity.txt in vault's config directory; --out - writes it to stdout. It prints the \
            identity's recipient, the age1 line others seal to it with. show prints the recipient \
            of the identity named by --identity, VAULT_IDENTITY or the config key identity (a path; \
            VAULT_IDENTITY may hold the identity text itself), else of that default file. Identities and recipients are \
            age's: age-keygen's files work here, and vault's with age.
            """,
        options: [
            OptionSpec(.out, short: "o", value: "FILE", help: "new: the new file to write the identity to; - writes it to stdout",
                       completion: .file),
            OptionSpec(.identity, short: "i", value: "FILE", help: "show: an identity file (its text only in VAULT_IDENTITY)",
                       completion: .file, environment: "VAULT_IDENTITY", configKey: "identity"),
            json,
        ],
        positionals: [
            PositionalSpec("ACTION", help: "new or show", completion: .values(["new", "show"])),
        ],
        examples: [
            ExampleSpec("vault identity new", "make your identity and print its recipient for the vault's owner"),
            ExampleSpec("vault identity new --out - | gh secret set VAULT_IDENTITY", "make a CI runner's identity, straight into a CI secret"),
            ExampleSpec("vault identity show --identity ~/.config/age/keys.txt", "print the recipient of an age-keygen identity"),
        ],
        run: { try IdentityCommand.run($0) })

    static let grantCommand = CommandSpec(
        "grant", summary: "write a scoped credential that opens some groups only",
        discussion: """
            Writes a scoped credential to a new file (0600): a key file that opens the \
            items of the groups named, and nothing else, of this vault only. Give it to a \
            CI job as --credential FILE, or put the file's content in VAULT_CREDENTIAL. \
            With --read-only it cannot add, update or delete. With --expires it stops \
            working after that time. 'vault revoke --group G' ends every credential of G.
            """,
        options: [
            OptionSpec(.group, value: "GROUP", help: "a group the credential opens; repeat it for several",
                       repeatable: true, completion: .group),
            OptionSpec(.readOnly, help: "the credential can read items but not change them"),
            OptionSpec(.expires, value: "WHEN",
                       help: "stop working after a duration (90m, 30d) or at a date (2027-01-31, 2027-01-31T12:00Z)"),
            OptionSpec(.out, short: "o", value: "FILE", help: "the new file to write the credential to; - writes it to stdout",
                       completion: .file),
            resultJSON,
        ],
        examples: [
            ExampleSpec("vault grant --group ci --out ci.cred", "a credential for the CI job's group"),
            ExampleSpec("vault grant --group ci --read-only --expires 30d --out - | gh secret set VAULT_CREDENTIAL",
                        "a read-only credential for 30 days, straight into a CI secret"),
        ],
        run: { try GrantCommand.run($0) })

    static let revokeCommand = CommandSpec(
        "revoke", summary: "end every credential granted for a group",
        discussion: """
            Gives each group named a fresh key and re-seals its items under it. Every \
            credential granted for the group stops working and says it was revoked; the \
            items stay as they are. Grant a new credential to whoever still needs one.
            """,
        options: [
            OptionSpec(.group, value: "GROUP", help: "a group whose credentials end; repeat it for several",
                       repeatable: true, completion: .group),
            resultJSON,
        ],
        examples: [
            ExampleSpec("vault revoke --group ci", "end the CI job's credential, e.g. after a leak"),
            ExampleSpec("vault revoke --group ci && vault grant --group ci --out ci.cred", "replace a credential"),
        ],
        destructive: true,
        run: { try RevokeCommand.run($0) })
}
