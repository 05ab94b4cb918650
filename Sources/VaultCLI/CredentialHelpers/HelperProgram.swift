/// The names vault answers to besides `vault`: links that git, docker and Terraform run
/// as credential helpers (`credential.helper = vault` runs `git-credential-vault`,
/// `"credsStore": "vault"` runs `docker-credential-vault`, `credentials_helper "vault"` runs
/// `terraform-credentials-vault`); and `vault --cargo-plugin`, as cargo runs a credential provider.
enum HelperProgram {
    /// The command a program name stands for, e.g. "git-credential" for "git-credential-vault"
    /// (a switch, not a dictionary: every start asks, and building one cost more than the rest).
    static func command(forProgram name: Substring) -> String? {
        switch name {
        case "git-credential-vault": "git-credential"
        case "docker-credential-vault": "docker-credential"
        case "terraform-credentials-vault": "terraform-credential"
        default: nil
        }
    }

    /// vault's arguments for a call as `programName ARGS`: the helper's
    /// command put in front, or ARGS as they are for any other name. Nil when
    /// there is nothing to do: git asks helpers to ignore operations they do
    /// not know (gitcredentials(7)), so a later git's new operation is no error.
    static func arguments(invokedAs programName: String, _ arguments: [String]) -> [String]? {
        let name = programName.lastIndex(of: "/").map { programName[programName.index(after: $0)...] } ?? programName[...]
        guard let command = command(forProgram: name) else {
            // cargo passes no argument but this one; the rest of its setting comes in each request.
            return arguments.first == "--cargo-plugin" ? ["cargo-credential"] + arguments : arguments
        }
        if command == "git-credential", let operation = arguments.last, !operation.hasPrefix("-"),
            !GitCredentialCommand.operations.contains(operation)
        {
            return nil
        }
        return [command] + arguments
    }
}
