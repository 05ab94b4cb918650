/// What a passphrase prompt says first when an identity lies at the default path but opens no
/// member slot of this vault (a member's is used without being named: docs/TEAMS.md, "An identity
/// is a key file"): the prompt is for the owner's passphrase, and a member learns how to be added.
enum UnnamedIdentityText {
    static func beforePrompt(path: String) -> String {
        "the identity at \(quoted(path)) opens no member slot of this vault, so this asks for the owner's passphrase; "
            + "to read as a member, have the owner run 'vault member add NAME RECIPIENT' with the recipient 'vault identity show' prints, then sync"
    }
}
