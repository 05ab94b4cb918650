/// The life of a vault's items: expiry, wipes, moving items, starting over, checking.
extension CommandTable {

    static let wipeCommand = CommandSpec(
        "wipe", summary: "remove the items that match filters",
        discussion: """
            Removes every item that matches all the filters given, after printing them \
            and asking on a terminal; without a terminal it needs --yes. --all removes \
            every item. Wiping whole groups (--group alone, or --all) also gives those \
            groups fresh keys, so credentials granted for them and old copies of their \
            keys open nothing from then on. The group comes from --group only, never \
            from VAULT_GROUP or the config. What wipe removes does not go to the trash; \
            --trash empties the trash instead (of the group given with --group, or all of it).
            """,
        examples: [
            ExampleSpec("vault wipe --expired --yes", "remove expired items from a script"),
            ExampleSpec("vault wipe --group ci --dry-run", "show what wiping the group ci would remove"),
            ExampleSpec("vault wipe --service old-api --older-than 180d", "remove stale items of one service, after a yes"),
            ExampleSpec("vault wipe --trash --yes", "empty the trash for good")
        ],
        destructive: true,
        run: WipeCommand.run)

    static let firstRunCommand = CommandSpec(
        "first-run", summary: "wipe what an earlier install or owner left, once",
        discussion: """
            When the marker file is missing, wipes the groups named (every item of the \
            vault when none is named, which asks on a terminal and needs --yes without \
            one), then creates the marker. When the marker exists it changes nothing. \
            Safe to run at the start of every job or every launch of a tool: keep the \
            marker where a reinstall or a fresh runner removes it. The config keys \
            first-run-marker and first-run-groups do the same before the first command \
            that opens the vault.
            """,
        examples: [
            ExampleSpec(
                "vault first-run --marker \"$RUNNER_TEMP/vault-first-run\" --group ci",
                "on a reused CI runner: wipe the group ci once per job"),
            ExampleSpec(
                "vault first-run --marker ~/.local/state/mytool/installed --group mytool",
                "in a tool: wipe its items left by an earlier install")
        ],
        destructive: true,
        run: FirstRunCommand.run)

    static let exportCommand = CommandSpec(
        "export", summary: "write items to an encrypted bundle, or in the clear to take them elsewhere",
        discussion: """
            Writes the items that match the filters (every item when none is given) to a new \
            file (0600), sealed under the bundle's own passphrase (asked twice, or \
            --bundle-passphrase-file) or key file (--bundle-key-file, created when missing). \
            --format csv or json with --plaintext writes them in the clear instead, every \
            attribute and the secret, to stdout or a new 0600 file (--out), for another tool or \
            to leave vault; on a terminal it asks first (declining exits 128). The columns and the JSON shape are in \
            docs/CLI.md; import --from vault-csv or vault-json reads them back byte for byte. \
            Items of the -this-device-only classes are never exported: their keys never leave \
            this machine; vault says how many were left out.
            """,
        examples: [
            ExampleSpec("vault export --out backup.vexport", "export to a bundle, asking for its passphrase"),
            ExampleSpec("vault export --out move.vexport --bundle-key-file move.key", "export for another machine with a key file"),
            ExampleSpec(
                "vault export --group ci --format csv --plaintext --out ci.csv", "write the group ci's items in the clear, for another tool"
            )
        ],
        run: ExportCommand.run)

    static let importCommand = CommandSpec(
        "import", summary: "add the items of an export bundle, a plaintext export, or another password manager's export",
        discussion: """
            Adds the items of a bundle made by export, with their attributes and dates; with \
            --from vault-csv or vault-json, those of a plaintext export (export --format csv or \
            json --plaintext), byte for byte, every sealed field included (a malformed file is an \
            error naming its row or item). \
            With --from FORMAT it reads another password manager's export instead: a pass \
            or gopass store (each entry decrypted by your own gpg), a KeePassXC CSV export \
            or database (opened by keepassxc-cli), a Bitwarden unencrypted JSON export, a \
            1Password CSV export, or any CSV with --columns. Each entry's password is the \
            secret; the rest of it (user name lines, URLs, notes, custom fields) is kept in \
            the item's notes and a one-time code in its otp field, both sealed like the \
            secret (get --field notes, vault otp). Bad input (a malformed row, an entry gpg \
            cannot decrypt, an encrypted export) and two entries with one name stop the \
            import with nothing imported, unless --partial. An item whose group, service and \
            account exist is skipped, replaced, or (the default) makes the import fail with \
            nothing imported, as --on-conflict says. Reports what came in and what was left \
            out. docs/IMPORT.md describes each format and how its entries are named.
            """,
        positionals: [
            PositionalSpec(
                "SOURCE", help: "the bundle, or the export (a file, - for stdin, a password store's directory, an OpenBao MOUNT/PREFIX)",
                optional: true, completion: .file)
        ],
        examples: [
            ExampleSpec("vault import backup.vexport", "import, failing on the first item that exists"),
            ExampleSpec("vault import --from pass", "move a pass store ($PASSWORD_STORE_DIR or ~/.password-store) in"),
            ExampleSpec(
                "vault import --from bitwarden-json bitwarden_export.json --folders-as-groups --dry-run",
                "see what a Bitwarden export would become, its folders as groups"),
            ExampleSpec("vault import --from kdbx Passwords.kdbx --group personal", "import a KeePassXC database into one group"),
            ExampleSpec(
                "vault import --from openbao secret/ci --group ci --dry-run",
                "see what the KV v2 secrets under secret/ci of the OpenBao server at $BAO_ADDR would become"),
            ExampleSpec(
                "vault import --from csv export.csv --columns service=Name,account=Login,secret=Password",
                "import any CSV, naming its columns"),
            ExampleSpec(
                "vault import move.vexport --bundle-key-file move.key --on-conflict replace",
                "import and overwrite what exists"),
            ExampleSpec("vault import --from vault-csv ci.csv", "import a plaintext export made by export --format csv --plaintext")
        ],
        run: ImportCommand.run)

    static let resetCommand = CommandSpec(
        "reset", summary: "remove the vault and everything kept for it",
        discussion: """
            Removes the vault file, its unlock sessions, after-first-unlock cache and \
            device key, then the directory if that leaves it empty. Asks on a \
            terminal; needs --yes without one. Needs no passphrase: it is how to start \
            over after losing it.
            """,
        examples: [
            ExampleSpec("vault reset", "remove the default vault, after a yes"),
            ExampleSpec("vault --vault ./ci.vault reset --yes", "remove a CI job's vault")
        ],
        destructive: true,
        run: ResetCommand.run)

    static let copyCommand = CommandSpec(
        "copy", summary: "make an independent copy of the vault to experiment on",
        discussion: """
            Writes a new vault at PATH with every group, item (with its history), trash entry \
            and member of this one, sealed again under a vault id and keys of its own: the copy \
            and the original change independently, and neither reads as an older version of \
            the other. A file copied with cp is the same vault: writing to one makes the other \
            read as older here (refused with 49), and vault warns once when that happens. The \
            copy opens with the passphrase or key file the vault was opened with (asked for \
            when a session opened it; add others with passwd); its trust fingerprint is new. \
            The owner's alone: it needs the master key. Refused (exit 48, as init) when PATH exists.
            """,
        examples: [
            ExampleSpec("vault copy --to ~/scratch.vault", "a copy to try things on"),
            ExampleSpec(
                "vault --vault team.vault copy --to team-test.vault --kdf-cost testing", "a cheap-to-open copy of a team vault for tests")
        ],
        run: CopyCommand.run)

    static let verifyCommand = CommandSpec(
        "verify", summary: "check the vault's files, format and records",
        discussion: """
            Checks the permissions of the vault (others may read it, not write it), \
            its directory and its device key, parses the whole file, checks its MACs, \
            and opens every record the keys at hand open, and prints the format version and \
            counters. Changes nothing, except with --quarantine: the items of groups whose index \
            fails its MAC are set aside (the file as it was is kept in ~/.local/state/vault/quarantine) so the \
            healthy groups can be written again. Exits 93 \
            when anything is damaged, 1 when a file is exposed to other users, 0 otherwise.
            """,
        examples: [
            ExampleSpec("vault verify", "check the default vault, opening what the keys at hand open"),
            ExampleSpec("vault --key-file ci.key verify", "check every record of a CI vault"),
            ExampleSpec("vault verify --quarantine", "set aside a group that was damaged or forged")
        ],
        run: VerifyCommand.run)

    static let upgradeCommand = CommandSpec(
        "upgrade", summary: "convert a vault file to the current format (v3)",
        discussion: """
            Converts a v1 or v2 file to format v3, the one every write produces. Outside a git work \
            tree, the first change to a v1 vault converts it on its own; in one, where teammates may \
            still run a vault that reads only v1, only this command does (commit the result). Outside \
            a work tree the v1 file is kept as VAULT.v1.bak (0600); in one, git's history keeps it. A \
            v3 file is left as it is.
            """,
        examples: [
            ExampleSpec("vault upgrade && git commit -m 'vault: format v3' secrets.vault", "convert a vault kept in git")
        ],
        run: UpgradeCommand.run)
}
