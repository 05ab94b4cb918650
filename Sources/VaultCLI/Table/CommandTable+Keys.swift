import VaultCore

// Commands on keys and sessions, and the plumbing: passwd, rekey, unlock, lock, status, help, complete, generate, the clipboard clearer.
extension CommandTable {
    static let passwdCommand = CommandSpec(
        "passwd", summary: "change how the vault is unlocked",
        discussion: """
            Unlocks the vault with the current passphrase or key file, then makes one \
            change to its keyslots: sets a new passphrase (asked twice, or read from \
            --new-passphrase-file), adds or removes a key file or a desktop-keyring \
            key, or removes the passphrase. Each change also rotates the master key (every item \
            re-sealed, as rekey does) when every keyslot left opens with the key file or passphrase \
            given or a new one; otherwise it says so, and an old copy of the file still opens with the \
            old secret until 'vault rekey'. Removing the passphrase destroys \
            the items of class when-passcode-set-this-device-only.
            """,
        examples: [
            ExampleSpec("vault passwd", "change the passphrase"),
            ExampleSpec(
                "vault passwd --add-key-file ~/.config/vault/laptop.key",
                "also unlock with a key file"),
            ExampleSpec("vault passwd --add-keyring-slot", "unlock without a prompt while logged in to the desktop"),
            ExampleSpec(
                "vault --key-file ./ci.key passwd --remove-passphrase",
                "keep only the key file")
        ],
        run: PasswdCommand.run)

    static let rekeyCommand = CommandSpec(
        "rekey", summary: "replace every key of the vault",
        discussion: """
            Makes a new master key, class keys and group keys, re-seals every item under them \
            and raises the key epoch, so an old copy of the file with an old passphrase, key \
            file or session token opens nothing written afterwards. Every unlock session, \
            after-first-unlock cache and scoped credential ends (grant credentials again); the \
            vault id stays, and this machine's device key is replaced too, so a stolen device key \
            opens nothing afterwards. The keyslot of the passphrase or key file given is kept; other \
            keyslots, items bound to another machine (-this-device-only) and, without a passphrase \
            keyslot, when-passcode-set-this-device-only items cannot be carried over: they are \
            listed and dropped after a yes (--yes without a terminal). One atomic write.
            """,
        examples: [
            ExampleSpec("vault rekey", "after a passphrase, key file or session token may have leaked"),
            ExampleSpec("vault --key-file ci.key rekey --yes", "re-key a CI vault from a script")
        ],
        run: RekeyCommand.run)

    static let unlockCommand = CommandSpec(
        "unlock", summary: "start an unlock session for this login, or print its token",
        discussion: """
            With a live session in VAULT_SESSION or in this login's kernel keyring, gives it a \
            fresh idle timeout, asking nothing. Otherwise asks for the passphrase (three tries) \
            or uses the key file, and starts a session: the \
            unwrapped keys are kept in the runtime directory, sealed under a token. The token \
            is kept in the login's kernel session keyring, readable only by the processes of \
            the login, so every shell of it reads without a passphrase until the session is \
            idle for longer than its timeout, is locked, or the machine reboots; the child of \
            vault run is kept out of it. Under CI, with --no-keyring, or where the keyring is \
            not available (said once), the token is printed instead: with VAULT_SESSION set to \
            it, commands need no passphrase. Sessions live side by side: a new one never ends \
            another. Any unlock also opens after-first-unlock items until the next reboot.
            """,
        examples: [
            ExampleSpec("vault unlock", "unlock every shell of this login for 15 minutes of idle time"),
            ExampleSpec("eval \"$(vault unlock --export)\"", "unlock this shell through VAULT_SESSION"),
            ExampleSpec("export VAULT_SESSION=\"$(vault unlock --raw --timeout 2h)\"", "keep the token for a long job")
        ],
        run: UnlockCommand.run)

    static let lockCommand = CommandSpec(
        "lock", summary: "end unlock sessions",
        discussion: """
            Ends the session in VAULT_SESSION and the one this login's kernel keyring keeps, \
            for every process of the login, and wipes their cache; other sessions go on. \
            --all ends every session of the vault and the after-first-unlock cache too; \
            otherwise after-first-unlock items stay readable until a reboot.
            """,
        examples: [
            ExampleSpec("vault lock", "end this login's session (and the one in VAULT_SESSION); other sessions go on"),
            ExampleSpec("vault lock --all", "end every session and the after-first-unlock state")
        ],
        run: LockCommand.run)

    static let statusCommand = CommandSpec(
        "status", summary: "show whether the vault is locked, and what it holds",
        discussion: """
            Shows, without unlocking: the vault path and backend, the scoped credential in use \
            (its groups, read-only or not, expiry), whether a session is live, where it lives \
            (VAULT_SESSION or this login's kernel keyring) and when it ends, whether after-first-unlock items are \
            open, whether this is the vault's device, its keyslots, and item counts by group \
            and class.
            """,
        examples: [
            ExampleSpec("vault status", "show the state of the default vault"),
            ExampleSpec("vault status --json", "the same for a script")
        ],
        run: StatusCommand.run)

    static let deviceKeyCommand = CommandSpec(
        "device-key", summary: "seal this machine's device key by its TPM, or show how it is kept",
        discussion: """
            The device key binds the -this-device-only items to this machine. Without an option, \
            shows how it is kept: a 0600 file in the data directory, or sealed by the TPM 2.0 \
            (only the sealed blob on disk; the TPM opens it only on this machine, and only while \
            the PCRs of the config key tpm-pcrs, 7 by default, hold the values they had), with a \
            recovery seal beside it (the same TPM, no PCRs, opened by the master key). --tpm seals \
            the key and wipes its file; it needs an unlock. On a key already sealed it says so and \
            changes nothing, unless --reseal, which seals it again under the PCRs' values now and \
            needs an unlock: after an intended change (a firmware or Secure Boot update), the \
            recovery seal gives the key the PCR-bound seal refuses; on another machine it opens \
            nothing. --pin \
            adds a PIN to the seal (VAULT_TPM_PIN_FILE, or asked twice); the TPM's \
            dictionary-attack lockout limits its guesses, for every user of the TPM. --no-tpm \
            moves the key back into a file; it needs an unlock. vault init seals the key when a \
            TPM is found (/dev/tpmrm0, or VAULT_TPM / the config key tpm). A key the TPM refuses \
            is never replaced: the items bound to it wait until the TPM opens it again.
            """,
        examples: [
            ExampleSpec("vault device-key --tpm", "seal this machine's device key by its TPM"),
            ExampleSpec("vault device-key", "show whether the TPM or a file keeps it"),
            ExampleSpec("vault device-key --tpm --reseal", "seal it again after a firmware or Secure Boot update changed PCR 7"),
            ExampleSpec("vault device-key --no-tpm", "move it back into a file")
        ],
        run: DeviceKeyCommand.run)

    static let helpCommand = CommandSpec(
        "help", summary: "show help for vault or for a command",
        discussion: """
            Shows the commands of vault by what they are for, or the options and examples of one \
            command. The plumbing that git and docker run (merge-driver, git-credential, \
            docker-credential) is listed only with --all.
            """,
        positionals: [
            PositionalSpec("COMMAND", help: "command to describe", optional: true, completion: .command)
        ],
        examples: [
            ExampleSpec("vault help add", "show the options and examples of add"),
            ExampleSpec("vault help --all", "list every command, the plumbing too")
        ],
        run: HelpCommand.run)

    static let completeCommand = CommandSpec(
        "__complete", summary: "print names for shell completion",
        discussion: "Prints one name per line from what opens at once, and nothing when the vault is locked.",
        positionals: [
            PositionalSpec(
                "KIND", help: "names to print",
                completion: .values(["groups", "services", "accounts", "items"]))
        ],
        hidden: true,
        run: CompleteCommand.run)

    static let generateCommand = CommandSpec(
        "__generate", summary: "print a file generated from this table",
        discussion: "Prints the man page or a shell completion script; make generate writes them.",
        positionals: [
            PositionalSpec(
                "FILE", help: "file to print",
                completion: .values(GeneratedFile.allCases.map(\.rawValue)))
        ],
        hidden: true,
        run: GenerateCommand.run)

    static let clipboardClearCommand = CommandSpec(
        ClipboardClearCommand.name, summary: "clear the clipboard later, for get --clip",
        discussion: "Started by vault get --clip in a session of its own; reads the secret's HMAC on stdin.",
        positionals: [
            PositionalSpec(
                "METHOD", help: "how the clipboard was reached",
                completion: .values(ClipboardMethod.allCases.map(\.rawValue))),
            PositionalSpec("SECONDS", help: "how long to wait"),
            PositionalSpec("PLACE", help: "the display or terminal")
        ],
        hidden: true,
        run: ClipboardClearCommand.run)
}
