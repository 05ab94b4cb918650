/// The file changes `git log --raw --no-abbrev --format="commit %H"` prints, one per commit and
/// parent (with `-m`), oldest first as git gave them: what `TeamLogHistory` and
/// `VaultFileHistory` read the vault files' blobs from.
struct RawFileChange {
    let commit: String
    let path: String
    /// git's status letter: "M" modified, "A" added, "D" deleted …
    let status: Substring
    let before: String
    let after: String

    /// The options that make `git log` print what `parse` reads, before the revisions and paths.
    static let logArguments = [
        "log", "--no-renames", "--full-history", "-m", "--raw", "--no-abbrev", "--topo-order", "--reverse",
        "--format=commit %H"
    ]

    /// The changes of `output`, a `git log` run with `logArguments`.
    static func parse(_ output: String) -> [RawFileChange] {
        var changes: [RawFileChange] = []
        var commit = ""
        for line in output.split(separator: "\n") {
            if line.hasPrefix("commit ") {
                commit = String(line.dropFirst(7))
                continue
            }
            let parts = line.split(separator: "\t", maxSplits: 1)
            let fields = parts[0].split(separator: " ")
            guard line.hasPrefix(":"), parts.count == 2, fields.count >= 5 else { continue }
            changes.append(
                RawFileChange(
                    commit: commit, path: String(parts[1]), status: fields[4], before: String(fields[2]), after: String(fields[3])))
        }
        return changes
    }
}
