/// The files rendered from the command table and committed to the repository.
public enum GeneratedFile: String, CaseIterable, Sendable {
    case man, bash, zsh, fish

    /// Where the file lives, relative to the package root.
    public var path: String {
        switch self {
        case .man: "man/vault.1"
        case .bash: "completions/vault.bash"
        case .zsh: "completions/_vault"
        case .fish: "completions/vault.fish"
        }
    }

    /// The file's contents as the table renders them now.
    public func render() -> String {
        switch self {
        case .man: ManPage.render()
        case .bash: BashCompletion.render()
        case .zsh: ZshCompletion.render()
        case .fish: FishCompletion.render()
        }
    }

    /// The first line of every generated file, after the comment marker.
    static let notice = "Generated from CommandTable.swift by `make generate`; do not edit"
}
