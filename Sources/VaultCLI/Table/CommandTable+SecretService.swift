/// vault as the desktop's keyring: `secret-service serve|enable|disable|status` (docs/SECRET-SERVICE.md).
extension CommandTable {
    static let secretServiceCommand = CommandSpec(
        "secret-service", summary: "serve the desktop's Secret Service (org.freedesktop.secrets) from a vault group",
        discussion: """
            serve answers org.freedesktop.secrets on the session bus: its login collection (alias default) is \
            one vault group, desktop unless the config key secret-service-group names another, so secret-tool, \
            python keyring, go-keyring (gh), git-credential-libsecret and Chromium store their secrets in \
            the vault. D-Bus starts it on the first call; it opens the vault as any command would, from its \
            environment (a session in the login's kernel keyring, VAULT_SESSION, a key file), never prompts, and \
            exits after the config key secret-service-idle's seconds (60) with no client connected. It exits \
            with one line when another program (gnome-keyring, KeePassXC) holds the name. enable writes the \
            activation file under ~/.local/share/dbus-1/services/ and a matching systemd user unit; disable \
            removes them; status says whether it is enabled and which program holds the name. Nothing is enabled \
            automatically.
            """,
        positionals: [
            PositionalSpec(
                "ACTION", help: "serve, enable, disable or status", completion: .values(["serve", "enable", "disable", "status"]))
        ],
        examples: [
            ExampleSpec("vault secret-service enable", "let D-Bus start vault when a program asks for the desktop keyring"),
            ExampleSpec("vault secret-service status", "say whether vault or another program serves org.freedesktop.secrets")
        ],
        run: SecretServiceCommand.run)
}
