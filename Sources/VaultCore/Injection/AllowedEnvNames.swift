/// The variable names a group's owner lets its items set in `vault env` and `vault run --env-group`
/// when the job names none (`vault group allow-env`): exact names and prefixes, written
/// `NAME,PREFIX*,…`. Kept in the team log, whose head only the owner's trust key signs
/// (docs/RUN.md, "Names a job accepts"; docs/FORMAT.md, "Team log").
public struct AllowedEnvNames: Equatable, Sendable {
    /// Names allowed exactly.
    package let names: [String]
    /// Prefixes of allowed names (written with a trailing `*`).
    package let prefixes: [String]

    /// The most bytes the written form may have.
    package static let maxTextBytes = 1024

    /// Parses `NAME,PREFIX*,…`: each part a variable name, or the start of one followed by `*`.
    /// Returns nil for an empty list, a part that no variable could have or begin with, or a text
    /// longer than `maxTextBytes`.
    package init?(text: String) {
        guard !text.isEmpty, text.utf8.count <= AllowedEnvNames.maxTextBytes else { return nil }
        var names: [String] = [], prefixes: [String] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            if part.hasSuffix("*") {
                let prefix = String(part.dropLast())
                guard Dotenv.isValidName(prefix) else { return nil }
                if !prefixes.contains(prefix) { prefixes.append(prefix) }
            } else {
                guard Dotenv.isValidName(part) else { return nil }
                if !names.contains(part) { names.append(part) }
            }
        }
        self.names = names
        self.prefixes = prefixes
    }

    /// The written form: the names, then the prefixes each followed by `*`, separated by commas.
    package var text: String {
        (names + prefixes.map { $0 + "*" }).joined(separator: ",")
    }

    /// Whether an item may set the variable `name`.
    package func accepts(_ name: String) -> Bool {
        names.contains(name) || prefixes.contains { name.hasPrefix($0) }
    }
}
