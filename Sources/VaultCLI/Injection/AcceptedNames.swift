import VaultCore

/// The variable names a job accepts from items (`--only NAME,…`, `--prefix PREFIX`): an item's
/// writer chooses its name, so `vault env` and `vault run --env-group` set a variable only when
/// the job named it, exactly or by a prefix. docs/RUN.md ("Names a job accepts") says why.
struct AcceptedNames {
    /// Names accepted exactly, in the order the job wrote them.
    let names: [String]
    /// Prefixes of accepted names.
    let prefixes: [String]

    /// Reads every `--only` (names separated by commas) and `--prefix`; a name or prefix that no
    /// variable could have is a usage error naming it.
    init(only: [String], prefixes: [String]) throws {
        var names: [String] = []
        for list in only {
            for name in list.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
                guard Dotenv.isValidName(name) else {
                    throw UsageError(
                        "--only \(quoted(name)) is not a variable name",
                        hint: "write --only NAME[,NAME…] with names of letters, digits and _, not starting with a digit")
                }
                if !names.contains(name) { names.append(name) }
            }
        }
        for prefix in prefixes where !Dotenv.isValidName(prefix) {
            throw UsageError(
                "--prefix \(quoted(prefix)) cannot begin a variable name",
                hint: "write --prefix APP_ with letters, digits and _, not starting with a digit")
        }
        self.names = names
        self.prefixes = prefixes
    }

    /// Whether the job named nothing.
    var isEmpty: Bool { names.isEmpty && prefixes.isEmpty }

    /// Whether the job accepts a variable named `name`.
    func accepts(_ name: String) -> Bool {
        names.contains(name) || prefixes.contains { name.hasPrefix($0) }
    }

    /// The refusal of a command that would set item-named variables while neither the job nor the
    /// owner of `group` (nil: of the groups read) named any; `unpinned` when the owner named some but
    /// no trust fingerprint is pinned to check they are the owner's.
    static func noneNamed(_ command: String, group: AccessGroup? = nil, unpinned: Bool = false) -> UsageError {
        let whose = group.map { "the job and the owner of group \(quoted($0.name)) accept none" } ?? "the job accepts none"
        let owner =
            unpinned
            ? "the owner's names count only with the trust fingerprint pinned: --trust FP or VAULT_TRUST (from 'vault trust')"
            : "or have the group's owner allow them: vault group allow-env \(group?.name ?? "GROUP") 'APP_*' (read with VAULT_TRUST pinned)"
        return UsageError(
            "\(command) sets variables whose names the items' writers chose, and \(whose)",
            hint:
                "name them: --only NAME[,NAME…] (e.g. --only DEPLOY_TOKEN) or --prefix PREFIX (e.g. --prefix APP_); \(owner); see docs/RUN.md"
        )
    }
}
