import VaultCore

// MARK: - Credential helpers for git and docker

extension CommandTable {
    static let gitCredentialCommand = CommandSpec(
        "git-credential", summary: "be git's credential helper",
        discussion: """
            Speaks git's credential helper protocol: reads key=value lines up to a blank \
            line on stdin (at most 64 KiB); get prints the newest matching credential's \
            attributes and nothing when none matches, store replaces what matches, erase \
            removes what matches. Credentials are ordinary items: service \
            git:PROTOCOL://HOST[/PATH], account the user name, secret the password; \
            protocol and host must match, and path and user name when git sends them. \
            Installed as git-credential-vault, a link to vault, so that \
            'git config --global credential.helper vault' works, and \
            'credential.helper = "vault --group ci"' picks a group. A failure is one line on \
            stderr and nothing on stdout, so git goes on to its next helper or its prompt; \
            bad input exits 2 and changes nothing. See docs/INTEGRATIONS.md.
            """,
        positionals: [
            PositionalSpec("OPERATION", help: "what git asks for", completion: .values(GitCredentialCommand.operations))
        ],
        examples: [
            ExampleSpec(
                "printf 'protocol=https\\nhost=example.com\\n\\n' | vault git-credential get",
                "ask as git would: prints protocol, host, username and password when stored"),
            ExampleSpec(
                #"printf 'protocol=https\nhost=example.com\nusername=bot\npassword=%s\n\n' "$TOKEN" | vault git-credential --group ci store"#,
                "store a token in the access group ci as git would"),
            ExampleSpec("vault list --service git:https://example.com", "show the logins git stored: they are ordinary items")
        ],
        run: GitCredentialCommand.run)

    static let dockerCredentialCommand = CommandSpec(
        "docker-credential", summary: "be docker's credential helper",
        discussion: """
            Speaks the docker-credential-helpers protocol: store reads \
            {"ServerURL": ..., "Username": ..., "Secret": ...} on stdin, get and erase read a \
            server URL, list prints {"SERVERURL": "USERNAME", ...}, version prints the \
            version. Logins are ordinary items: service docker:SERVERURL, account the user \
            name, secret the password or token, one login per server. When no login is \
            stored, get and erase print 'credentials not found in native keychain' and \
            exit 1, as docker expects; other failures print their message on stdout and \
            one line on stderr, and exit with vault's status (bad input: 2, locked: 36). \
            Installed as docker-credential-vault, a link to vault, so that \
            "credsStore": "vault" in ~/.docker/config.json works. See docs/INTEGRATIONS.md.
            """,
        positionals: [
            PositionalSpec("OPERATION", help: "what docker asks for", completion: .values(DockerCredentialCommand.operations))
        ],
        examples: [
            ExampleSpec(
                "printf %s https://index.docker.io/v1/ | vault docker-credential get",
                "print the login stored for Docker Hub as JSON"),
            ExampleSpec("vault docker-credential list", "list the servers with a stored login"),
            ExampleSpec(
                "vault --key-file ci.key docker-credential --group ci list",
                "list the registry logins of the access group ci")
        ],
        run: DockerCredentialCommand.run)
}
