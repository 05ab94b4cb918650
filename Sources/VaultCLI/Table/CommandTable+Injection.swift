import VaultCore

// Commands that hand secrets to other programs: run, env, inject.
extension CommandTable {

    static let runCommand = CommandSpec(
        "run", summary: "run a command with secrets in its environment, masked in its output",
        discussion: """
            Resolves every secret reference, vault://[GROUP/]SERVICE/ACCOUNT, in the \
            environment, in each --env-file (NAME=VALUE lines: # comments, 'single' and \
            "double" quotes, an optional export prefix) and in each --env, then runs \
            COMMAND with the secrets in place of the references. If any reference is \
            malformed or missing, nothing runs and every one is listed. Each secret the \
            command prints on stdout or stderr is replaced by <concealed by vault>, also \
            when split across writes, and every other byte passes unchanged and at once; \
            secrets shorter than 4 bytes are not masked (vault says so). When stdout is a \
            terminal the command gets a pseudo-terminal, so colours and progress bars \
            still work. SIGINT, SIGTERM and SIGHUP are forwarded; vault exits with the \
            command's status, or 128+N when a signal N ended it. The command gets secrets, \
            never what unlocks vault: VAULT_SESSION, VAULT_CREDENTIAL, VAULT_KEY_FILE and \
            VAULT_PASSPHRASE_FILE are left out of its environment, and it starts in a \
            session keyring of its own, outside the login's, unless --keep-vault-env \
            is given (an --env or --env-file that sets one is kept). It also cannot trace \
            its way out: it runs with no-new-privs, in a Landlock domain where the kernel \
            has one, and with ptrace, process_vm_readv, process_vm_writev and pidfd_getfd \
            failing, unless --allow-trace. With --mount the \
            secrets are served on a named pipe (0600, its path in VAULT_MOUNT_PATH) instead \
            of the environment, one reader at a time, and never written to a file system; \
            the pipe is removed when the command exits. With --env-group GROUP every item \
            of GROUP you can read whose name the job accepts (--only NAME,… or --prefix \
            PREFIX, one of which --env-group needs) is set too, named as vault env names it \
            (an --env or --env-file of the same name wins); an item whose name is protected (PATH, \
            BASH_ENV, LD_PRELOAD, GIT_*, GITHUB_ENV and the others of docs/RUN.md) is \
            skipped with a warning unless --allow-env-name NAME, and vault then exits 1 \
            when the command succeeded.
            """,
        examples: [
            ExampleSpec(
                "GITHUB_TOKEN=vault://github/ci-bot vault run -- ./deploy.sh",
                "run a script with a token from the vault, masked in its output"),
            ExampleSpec(
                "vault run --env-file .env.vault -- npm test",
                "resolve the references of an env file"),
            ExampleSpec(
                "vault run --env PGPASSWORD=vault://ci/postgres/admin -- psql -h db",
                "set one variable from an item of the group ci"),
            ExampleSpec(
                "vault run --env-group aws --prefix AWS_ -- terraform plan",
                "set the items of the group aws named AWS_… as variables, as envchain aws terraform plan does"),
            ExampleSpec(
                "vault run --env-file .env.vault --mount app.env --mount-max-reads 1 -- sh -c 'app --env-file \"$VAULT_MOUNT_PATH\"'",
                "hand the secrets to a program that reads a file, through a pipe read once")
        ],
        takesCommandAfterDashDash: true,
        run: RunCommand.run)

    static let envCommand = CommandSpec(
        "env", summary: "print items as environment variable assignments",
        discussion: """
            Prints NAME='VALUE' for every item of the group (or of every group the caller \
            can open) whose name the job accepts, as --only and --prefix say: every \
            format but json needs one of them, since an item's writer chooses its name \
            (docs/RUN.md). NAME is the item's --env-name, or else its service and account \
            upper-cased and joined by _, with characters other than letters, digits and _ \
            turned into _ (github/ci-bot gives GITHUB_CI_BOT). The default dotenv format \
            reads back the same in bash and python-dotenv, so it refuses (exit 2, nothing \
            printed) a value holding ', \\, a line break or ${. --format shell prints \
            export lines for eval, json one object, and github prints ::add-mask:: for each \
            value and appends the assignments to $GITHUB_ENV, multi-line values with a \
            random heredoc delimiter. An item whose secret is not text is skipped with a \
            warning naming it. An item whose name is protected (PATH, BASH_ENV, LD_PRELOAD, \
            GIT_*, GITHUB_ENV and the others of docs/RUN.md: names that change what the \
            programs of a job do) is skipped with a warning unless --allow-env-name NAME, \
            and env exits 1 after printing the rest. A group that does not exist is an \
            error (exit 44), one that holds nothing you can read a warning.
            """,
        examples: [
            ExampleSpec(
                "vault env --group ci --only DEPLOY_TOKEN,DATABASE_PASSWORD --format github",
                "export two items of the group ci to later steps of a GitHub Actions job"),
            ExampleSpec(
                "eval \"$(vault env --group dev --prefix DEV_ --format shell)\"", "set the group dev's items named DEV_… in this shell"),
            ExampleSpec("vault env --format json", "print every item as one JSON object")
        ],
        run: EnvCommand.run)

    static let injectCommand = CommandSpec(
        "inject", summary: "fill a template's secret references",
        discussion: """
            Copies TEMPLATE (stdin when no --in is given) with every \
            {{ vault://[GROUP/]SERVICE/ACCOUNT }} replaced by the secret, byte for byte, \
            to stdout or to --out. The output file is written atomically with mode 0600. If any reference is malformed or missing, nothing \
            is written and every one is listed.
            """,
        examples: [
            ExampleSpec("vault inject -i config.yml.tpl -o config.yml", "write a config file with its secrets filled in"),
            ExampleSpec("vault inject -i deploy.env.tpl", "print a filled template to stdout"),
            ExampleSpec("helm template . | vault inject | kubectl apply -f -", "fill a template from stdin, as op inject does")
        ],
        run: InjectCommand.run)
}
