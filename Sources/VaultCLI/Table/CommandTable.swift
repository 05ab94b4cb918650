import VaultCore

/// Every command and option of `vault`, as data. The parser, `vault help`, the
/// man page and the shell completions are renderings of this table: adding an
/// option is one line here.
public enum CommandTable {
    /// The version printed by `vault --version`.
    public static let version = "0.1.0"

    /// What vault is, in the words of `vault help` and the man page's NAME.
    public static let summary = "keep secrets for shells, scripts and CI jobs in an encrypted file"

    /// Options accepted before or after any command name.
    public static let globalOptions: [OptionSpec] = GlobalOptions.all

    /// Every environment variable vault reads, with what it does; options
    /// name theirs in `OptionSpec.environment`. `unlocks` marks what `vault run`
    /// keeps from its child.
    public static let environment: [EnvironmentSpec] = [
        EnvironmentSpec(.vaultPath, help: "The vault file, as with --vault."),
        EnvironmentSpec(
            .vaultPassphraseFile, unlocks: true,
            help: "A file that holds the passphrase, as with --passphrase-file."),
        EnvironmentSpec(.vaultKeyFile, unlocks: true, help: "A key file, as with --key-file."),
        EnvironmentSpec(.vaultSession, unlocks: true, help: "The token of an unlock session, from vault unlock."),
        EnvironmentSpec(
            .vaultCredential, unlocks: true,
            help: """
                A scoped credential from vault grant, as with --credential: the path of its file, or its text \
                itself (or the base64 of it), as a CI secret variable holds it.
                """),
        EnvironmentSpec(
            .vaultIdentity, unlocks: true,
            help: """
                An age identity, as with --identity: the path of an identity file, or its text itself, \
                as a CI secret variable holds it (only here: never on the command line or in the config).
                """),
        EnvironmentSpec(
            .vaultGroup,
            help: """
                The access group of commands that name none with --group; without it, and without group in \
                the config file, add uses default and the other commands search every group.
                """),
        EnvironmentSpec(
            .vaultTrust,
            help: "The vault's trust fingerprint, as with --trust: what a reader with an identity needs (vault trust prints it)."),
        EnvironmentSpec(.vaultMinEpoch, help: "The lowest key epoch accepted, as with --min-epoch (vault verify prints a vault's epoch)."),
        EnvironmentSpec(
            .vaultNoInteraction,
            help: """
                When set to anything but an empty string, 0, false or no, never prompt, as with --no-interaction.
                """),
        EnvironmentSpec(
            .vaultNoKeyring,
            help: """
                When set as for VAULT_NO_INTERACTION, keep unlock sessions out of the login's kernel keyring, as with --no-keyring.
                """),
        EnvironmentSpec(
            .vaultTPM,
            help: """
                The TPM 2.0 that seals device keys: a TCTI string as tpm2-tools' TPM2TOOLS_TCTI takes it \
                (device:/dev/tpmrm0, swtpm:host=127.0.0.1,port=2321), a device path, or off; like the config \
                key tpm. Unset, /dev/tpmrm0 when it exists.
                """),
        EnvironmentSpec(
            .vaultTPMPINFile, unlocks: true,
            help: """
                A file that holds the PIN of a device key sealed with one (vault device-key --tpm --pin), \
                instead of asking for it.
                """),
        EnvironmentSpec(.vaultBackend, help: "Where items live, as with --backend: file or secret-service."),
        EnvironmentSpec(.vaultCollection, help: "The keyring collection of the secret-service backend, as with --collection."),
        EnvironmentSpec(
            .baoAddress,
            help: """
                The OpenBao (or HashiCorp Vault) server of openbao:// references and import --from openbao: \
                http://HOST:PORT, https://HOST:PORT or unix:///PATH. VAULT_ADDR is not read (docs/OPENBAO.md).
                """),
        EnvironmentSpec(
            .baoToken, unlocks: true,
            help: """
                The token sent to BAO_ADDR; without it an AppRole login, else ~/.vault-token. Kept from the command of vault run.
                """),
        EnvironmentSpec(.baoCACert, help: "A PEM file of the CA certificates that sign BAO_ADDR's certificate."),
        EnvironmentSpec(.baoCAPath, help: "A hashed directory (c_rehash) of CA certificates; with neither, /etc/ssl/certs."),
        EnvironmentSpec(.baoNamespace, help: "The OpenBao namespace of every request."),
        EnvironmentSpec(.baoKV1Mounts, help: "The mounts, separated by commas, that are KV v1; every other mount is read as KV v2."),
        EnvironmentSpec(.baoClientTimeout, help: "Seconds one request to BAO_ADDR may take, connecting to answering (default 10)."),
        EnvironmentSpec(.baoAppRoleRoleID, help: "With no BAO_TOKEN: log in with AppRole as this role."),
        EnvironmentSpec(
            .baoAppRoleSecretIDFile, unlocks: true, help: "A file that holds the AppRole secret id (or a wrapping token of it)."),
        EnvironmentSpec(.baoAppRoleSecretID, unlocks: true, help: "The AppRole secret id itself, when no file holds it."),
        EnvironmentSpec(
            .baoAppRoleSecretIDWrapped,
            help: """
                When set as for VAULT_NO_INTERACTION, the secret id given is a response-wrapping token, unwrapped (once: it is single-use) before the login.
                """),
        EnvironmentSpec(.baoAppRoleMount, help: "Where AppRole is mounted (default approle)."),
        EnvironmentSpec(
            .httpsProxy,
            help: "An http://HOST:PORT proxy for https:// addresses of BAO_ADDR (a CONNECT tunnel); no_proxy names hosts reached directly."),
        EnvironmentSpec(.vaultMountPath, help: "Set by vault run --mount for the command it runs: the path of the named pipe."),
        EnvironmentSpec(
            .kubernetesExecInfo,
            help: """
                Set by kubectl for vault kube-credential: the API version, the cluster's server and whether it may prompt.
                """),
        EnvironmentSpec(
            .ci,
            help: """
                When set as for VAULT_NO_INTERACTION, as CI services do, never prompt: a locked vault exits with 36; \
                and keep unlock sessions out of the kernel keyring, as with --no-keyring (runner jobs often share one user).
                """),
        EnvironmentSpec(.githubEnv, help: "The file that env --format github appends to."),
        EnvironmentSpec(
            .xdgConfigHome,
            help: """
                The config file is $XDG_CONFIG_HOME/vault/config, or ~/.config/vault/config when it is unset.
                """),
        EnvironmentSpec(
            .xdgDataHome,
            help: """
                The directory of the default vault and of the device keys is $XDG_DATA_HOME/vault, or \
                ~/.local/share/vault when it is unset.
                """),
        EnvironmentSpec(
            .xdgRuntimeDir,
            help: """
                Unlock sessions and the after-first-unlock cache live in $XDG_RUNTIME_DIR/vault; when it is \
                unset, in /tmp/vault-UID while that is a 0700 directory of yours, else in \
                $XDG_STATE_HOME/vault/runtime.
                """),
        EnvironmentSpec(
            .xdgStateHome,
            help: """
                What this machine has seen of each vault (its counters, against rollback) lives in \
                $XDG_STATE_HOME/vault/seen, or ~/.local/state/vault/seen when it is unset.
                """),
        EnvironmentSpec(.noColor, help: "When set and not empty, help is printed without bold headings."),
        EnvironmentSpec(
            .vaultTestNow,
            help: """
                For tests only, and read by debug builds only: the time, in Unix seconds, for expiry and \
                session checks.
                """),
        EnvironmentSpec(
            .vaultLibsecretPath,
            help: """
                For tests only, and read by debug builds only: load libsecret from this path instead of \
                libsecret-1.so.0.
                """),
        EnvironmentSpec(
            .vaultTSS2ESYSPath,
            help: """
                For tests only, and read by debug builds only: load tpm2-tss's ESAPI from this path instead of \
                libtss2-esys.so.0.
                """),
        EnvironmentSpec(
            .vaultProgressImmediate,
            help: """
                For tests only, and read by debug builds only: when 1, show the progress line of long \
                commands at once instead of after a second.
                """),
        EnvironmentSpec(
            .vaultTestShutdownPauseMS,
            help: """
                For tests only, and read by debug builds only: milliseconds `vault secret-service serve` \
                waits, once idle, before it releases its bus name.
                """)
    ]

    /// Every environment variable that unlocks the vault, by the `unlocks`
    /// marks: what `vault run` never hands its child.
    public static var unlockingVariables: [String] {
        environment.filter(\.unlocks).map(\.name)
    }

    /// The sections of `vault help`, each with its commands in order. A
    /// visible command in none is plumbing, which other programs run (git's
    /// merge driver, the credential helpers): `vault help --all` lists it.
    static let helpSections: [(title: String, commands: [CommandSpec])] = [
        (
            "Items",
            [
                initCommand, addCommand, getCommand, otpCommand, updateCommand, editCommand, renameCommand,
                deleteCommand, trashCommand, undeleteCommand, listCommand, historyCommand
            ]
        ),
        ("CI and scripts", [runCommand, envCommand, injectCommand, scanCommand, redactCommand]),
        (
            "Teams and sharing",
            [
                groupCommand, grantCommand, revokeCommand, identityCommand, memberCommand, trustCommand,
                syncCommand, checkHistoryCommand, exposureCommand, conflictsCommand, resolveCommand, exportCommand, importCommand
            ]
        ),
        (
            "Unlocking and maintenance",
            [
                unlockCommand, lockCommand, statusCommand, passwdCommand, rekeyCommand, deviceKeyCommand,
                verifyCommand, upgradeCommand, copyCommand, wipeCommand, firstRunCommand, resetCommand, secretServiceCommand, helpCommand
            ]
        )
    ]

    /// The commands completion offers where a command name goes: those `vault help` lists, in its
    /// order; the plumbing is left out as help leaves it out (its options still complete once named).
    static var offeredCommands: [CommandSpec] { helpSections.flatMap(\.commands) }

    /// The visible commands no help section lists: run by other programs, shown by `vault help --all`.
    static var plumbingCommands: [CommandSpec] {
        let listed = Set(helpSections.flatMap(\.commands).map(\.name))
        return visibleCommands.filter { !listed.contains($0.name) }
    }

    /// Every command, in the order `vault help` lists them.
    public static let commands: [CommandSpec] = [
        initCommand, addCommand, getCommand, otpCommand, updateCommand, editCommand, renameCommand, deleteCommand,
        trashCommand, undeleteCommand, listCommand, historyCommand, groupCommand, grantCommand, identityCommand, memberCommand,
        trustCommand, revokeCommand, unlockCommand, lockCommand, statusCommand, passwdCommand, rekeyCommand,
        deviceKeyCommand, syncCommand, checkHistoryCommand, exposureCommand, mergeDriverCommand, textconvCommand, conflictsCommand,
        resolveCommand,
        runCommand, envCommand, injectCommand, scanCommand, redactCommand,
        wipeCommand, firstRunCommand, exportCommand, importCommand, resetCommand, verifyCommand, upgradeCommand, copyCommand,
        gitCredentialCommand, dockerCredentialCommand, kubeCredentialCommand, awsCredentialCommand, cargoCredentialCommand,
        terraformCredentialCommand, secretServiceCommand, helpCommand, completeCommand, generateCommand, clipboardClearCommand
    ]
}
