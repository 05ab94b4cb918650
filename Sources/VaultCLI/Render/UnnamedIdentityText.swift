/// What a passphrase prompt says first when this user has an identity file that was not named:
/// a member who never had a passphrase learns how to use the identity instead (docs/TEAMS.md,
/// "An identity is a key file": vault uses one only when it is named).
enum UnnamedIdentityText {
    static func beforePrompt(path: String) -> String {
        "vault: an identity is at \(quoted(path)), and vault uses one only when named: as a member of this vault, "
            + "give --identity \(shellQuoted(path)) (or VAULT_IDENTITY, or 'identity = \(path)' in the config) instead of a passphrase\n"
    }
}
