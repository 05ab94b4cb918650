/// The hand-written parts of man/vault.1, in mdoc: what the command table
/// cannot say. ManPage.swift puts them around the parts rendered from the
/// table. One sentence per line, as mdoc wants.
enum ManPageProse {
    /// The date in `.Dd`: when this prose or the table last changed in a way
    /// a reader would notice.
    static let date = "December 7, 2026"

    static let description = #"""
        .Nm
        keeps small secrets \(em tokens, passwords, keys \(em for shells, scripts and CI jobs,
        as the Keychain does for applications.
        Each item is addressed by its access group, service and account,
        and carries an accessibility class that says when it can be read.
        Items are sealed with AES-256-GCM in one vault file,
        under keys that a passphrase, a key file or both unlock.
        A command unlocks the vault with the first of
        .Fl \-key-file ,
        .Fl \-passphrase-file ,
        .Fl \-credential ,
        the session in
        .Ev VAULT_SESSION ,
        .Ev VAULT_KEY_FILE ,
        .Ev VAULT_PASSPHRASE_FILE ,
        .Ev VAULT_CREDENTIAL ,
        the session this login's kernel keyring keeps
        .Po
        .Cm vault unlock ,
        .Cm vault init
        .Pc
        and a passphrase prompt on the terminal.
        .Pp
        Secrets are never taken from the command line unless
        .Fl w
        is given: they are read from standard input, from a prompt that does not echo,
        from a file, or generated.
        .Cm get
        writes a secret exactly as stored, adding a newline only when standard output is a terminal.
        Messages go to standard error; nothing but data goes to standard output.
        .Pp
        Accessibility classes:
        .Bl -tag -width Ds
        .It Cm when-unlocked
        Readable while the vault is unlocked: with a passphrase or key file given on this call.
        The default.
        .It Cm after-first-unlock
        Readable once the vault has been unlocked since this machine booted, for cron jobs and daemons.
        .It Cm always
        Readable without unlocking.
        Allowed with a warning.
        .It Cm when-unlocked-this-device-only , after-first-unlock-this-device-only , always-this-device-only
        As above, and only on this machine: the item's key is also bound to a device key
        that never leaves it, so a copied vault file does not open these items elsewhere.
        .It Cm when-passcode-set-this-device-only
        As
        .Cm when-unlocked-this-device-only ,
        and only while the vault has a passphrase: removing the passphrase destroys these items.
        .El
        .Pp
        Access groups are cryptographic.
        .Cm vault grant
        writes a scoped credential that holds the keys of the groups it names and no others,
        so it cannot decrypt the items of another group;
        a CI job uses it with
        .Fl \-credential
        or
        .Ev VAULT_CREDENTIAL
        instead of the passphrase.
        .Cm vault revoke
        gives a group a new key and ends every credential granted for it.
        .Pp
        Credential helpers:
        .Nm
        answers to the names
        .Nm git-credential-vault
        and
        .Nm docker-credential-vault ,
        links to it that
        .Ql make install
        creates, as
        .Cm git-credential
        and
        .Cm docker-credential ,
        so that git's
        .Ql credential.helper = vault
        and docker's
        .Ql \(dqcredsStore\(dq: \(dqvault\(dq
        keep their logins as ordinary items, in services
        .Ql git:PROTOCOL://HOST[/PATH]
        and
        .Ql docker:SERVERURL .
        With the vault locked and no terminal, a helper answers at once with one line on standard error.
        """#

    /// How run, env and inject name items, and how they behave in CI.
    static let secretReferences = #"""
        .Ss Secret references
        .Cm run
        and
        .Cm inject
        name items with references of the form
        .Ql vault://[GROUP/]SERVICE/ACCOUNT .
        Two parts are a service and an account, three a group, a service and an account;
        without a group,
        .Fl \-group ,
        .Ev VAULT_GROUP
        or the config file's
        .Cm group
        applies, else every group is searched.
        In names,
        .Ql % ,
        .Ql / ,
        .Ql \&? ,
        .Ql #
        and spaces are percent-encoded, as in
        .Ql vault://db%2Fprod/admin%20user ;
        an empty account is nothing after the last slash.
        A reference that is malformed or names no item stops the command before
        anything runs or is written, and every such reference is listed.
        .Ss Masking
        .Cm run
        replaces each secret it resolved, wherever it appears in the command's
        standard output or standard error, by
        .Ql <concealed by vault> ,
        and each line of a multi-line secret as well.
        Output is passed on as it arrives; only bytes that could still turn out to be
        the start of a secret are held until the next read or the end.
        Secrets shorter than 4 bytes are not masked, and vault says so once on standard error.
        When standard output is a terminal the command runs on a pseudo-terminal of its own.
        .Ss Non-interactive use
        vault never prompts when
        .Ev CI
        or
        .Ev VAULT_NO_INTERACTION
        is set, with
        .Fl \-no-interaction ,
        or without a terminal.
        A command that needs the vault unlocked then exits 36 at once and lists the ways to give a credential:
        .Fl \-key-file ,
        .Fl \-passphrase-file ,
        .Ev VAULT_SESSION ,
        or a scoped credential from
        .Cm vault grant .
        """#

    /// The items of the EXIT STATUS list, as DESIGN.md §2 fixes them: the
    /// statuses of macOS security(1), the low byte of the Keychain's OSStatus.
    static let exitStatus = #"""
        .It 0
        Success.
        .It 1
        Another failure: an I/O error, or a vault, key or passphrase file that other users can read.
        .It 2
        Usage error: an unknown command or option, a missing or invalid value,
        or a query that matches several items where one is needed.
        .It 3
        .Cm scan
        could not complete: git failed or a file could not be read
        .Po
        .Cm scan
        exits 1 only for a leak
        .Pc .
        .It 30
        The scoped credential does not cover the access group, is read-only and a change was asked,
        or cannot do what only the owner may (errSecMissingEntitlement, \-34018).
        .It 32
        The TPM refuses to unseal this machine's device key: its state changed, or it is another TPM
        (errSecVerifyFailed, \-67808).
        .It 36
        The vault is locked and there is no way to ask for a passphrase:
        no terminal,
        .Fl \-no-interaction
        or CI (errSecInteractionNotAllowed, \-25308).
        .It 44
        No item matches the query, or the item has expired, or the group does not exist (errSecItemNotFound, \-25300).
        .It 45
        An item with the same group, service and account exists (errSecDuplicateItem, \-25299).
        .It 48
        .Cm init
        found a vault already there (errSecDuplicateKeychain, \-25296).
        .It 49
        The vault file is older than this machine has seen: rolled back
        (errSecInvalidKeychain, \-25295);
        .Fl \-accept-rollback
        when that was intended.
        .It 50
        There is no vault at the path (errSecNoSuchKeychain, \-25294).
        .It 51
        Wrong passphrase or key file, or a scoped credential that has expired,
        was revoked or belongs to another vault (errSecAuthFailed, \-25293).
        .It 53
        The TPM that seals this machine's device key is not available (errSecNotAvailable, \-25291).
        .It 54
        The TPM's dictionary-attack lockout refuses every PIN for now.
        .It 93
        The vault file or a scoped credential is corrupted or has been tampered with,
        or an item is bound to another device (errSecDecode, \-26275).
        .It 128
        The person at the terminal said no to a question
        .Po
        .Cm delete ,
        .Cm reset ,
        .Cm wipe ,
        a weak new passphrase
        .Pc ;
        nothing was changed (errSecUserCanceled, \-128).
        """#

    /// The items of the FILES list.
    static let files = #"""
        .It Pa ~/.local/share/vault/default.vault
        The default vault, created 0600 in a 0700 directory.
        A vault or key file that group or others can read is refused.
        .It Pa ~/.config/vault/config
        Settings, one
        .Ql key = value
        per line;
        .Ql #
        starts a comment.
        .Cm group
        sets the access group as
        .Ev VAULT_GROUP
        does, which wins over it;
        .Cm session-timeout
        sets the idle timeout of unlock sessions;
        .Cm first-run-marker
        and
        .Cm first-run-groups
        run the wipe of
        .Cm vault first-run
        before the first command that opens the vault, without asking.
        .Cm backend
        chooses the backend as
        .Ev VAULT_BACKEND
        does;
        .Cm identity
        names an age identity as
        .Ev VAULT_IDENTITY
        does.
        An unknown key is an error.
        .It Pa ~/.config/vault/identity.txt
        The identity
        .Cm vault identity new
        writes when no
        .Fl -out
        is given (0600): an age X25519 identity, which
        .Cm vault identity show
        reads when no other is named.
        .It Pa ~/.local/share/vault/device-keys/ Ns Ar ID Ns Pa .key
        This machine's device key for the vault whose id is
        .Ar ID ,
        for its
        .Cm this-device-only
        classes.
        It is never written to a vault file, never kept beside one and never exported.
        Writers take a flock(2) on a lock file in the runtime directory, so nothing
        but the vault file lies beside it and a vault may be committed to git.
        """#

    static let security = #"""
        Secrets given with
        .Fl w
        are visible to every user of the machine in ps(1);
        pipe them into standard input instead.
        .Pp
        The passphrase is stretched with scrypt.
        .Fl \-kdf-cost Cm testing
        lowers its cost and is meant for tests only.
        .Pp
        Every record is sealed with its own key, derived from its group and class keys,
        and the header is authenticated before any record is opened,
        so a changed byte anywhere exits with 93 instead of giving wrong plaintext.
        Service, account and label are sealed inside the records:
        the file shows only sizes, counts, groups and classes.
        .Pp
        Secret bytes are kept in locked memory where the system allows it,
        wiped when freed, and core dumps are disabled.
        No secret appears in an error message, or in
        .Fl \-json
        output without
        .Fl \-show-secret .
        .Pp
        With
        .Fl \-backend Cm secret-service ,
        items are only as safe as the desktop keyring keeps them:
        any program of the desktop session can read an unlocked collection,
        and classes and access groups are attributes there, not keys.
        """#

    static let seeAlso = #"""
        security(1) on macOS, whose exit statuses vault shares;
        git-credential(1) and gitcredentials(7), whose helper protocol
        .Cm git-credential
        speaks;
        docker-credential-helpers, whose protocol
        .Cm docker-credential
        speaks.
        """#
}
