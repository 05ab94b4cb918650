/// Options many commands take, each worded its own way (`with(help:)`), declared once here.
enum SharedOptions {
    static let yes = OptionSpec("yes", short: "y", help: "confirm without asking (needed without a terminal)")
}
