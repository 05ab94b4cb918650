#if canImport(Glibc)
import Glibc
#endif
import VaultCore

/// `vault sync --setup`: what a clone needs once for git to merge and diff a vault file.
extension SyncCommand {
    /// `--setup`: the attribute line committed alone (an older line of the same pattern, with
    /// `-diff`, replaced), the merge driver and the diff driver in the local git config.
    static func setup(_ repository: GitRepository, relative: String, json: Bool, _ invocation: Invocation) throws {
        let pattern = attributePattern(for: relative)
        let line = attributeLine(pattern)
        let attributesPath = repository.top + "/.gitattributes"
        let existing = GitRepository.exists(attributesPath) ? String(decoding: try readAttributes(attributesPath), as: UTF8.self) : ""
        var lines = existing.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        var changed = false
        if !lines.contains(where: { normalized($0) == line }) {
            if let old = lines.firstIndex(where: { normalized($0) == olderAttributeLine(pattern) }) {
                lines[old] = line
            } else {
                lines.append(line)
            }
            try writeAttributes(lines.joined(separator: "\n") + "\n", to: attributesPath)
            try repository.output(["add", "--", ".gitattributes"])
            try repository.output([
                "commit", "-q", "-m", "vault: merge \(pattern) record by record, diff it item by item", "--", ".gitattributes"
            ])
            changed = true
        }
        let program = driverProgram(path: invocation.environment[.path])
        let driver = "\(program) merge-driver %O %A %B %P"
        try repository.output(["config", "merge.vault.name", "vault: record-by-record merge of vault files"])
        try repository.output(["config", "merge.vault.driver", driver])
        let textconv = "\(program) textconv"
        try repository.output(["config", "diff.vault.textconv", textconv])
        // Cached conversions land in refs/notes/textconv/vault, which a push can carry off: off.
        try repository.output(["config", "diff.vault.cachetextconv", "false"])
        let named = program == "vault" ? "" : " (they name \(program): the vault on PATH is not this one)"
        invocation.report(
            changed
                ? "committed \(quoted(line)) to .gitattributes and set the merge and diff drivers in this clone's git config\(named); push it with 'vault sync'"
                : "the attributes were committed already; this clone's git config now has the merge and diff drivers\(named)",
            json: .object([
                ("attributes", .string(line)), ("committed", .bool(changed)), ("driver", .string(driver)),
                ("textconv", .string(textconv))
            ]), asJSON: json)
    }

    /// The pattern of the vault's attribute line: every .vault file, or the file's own path.
    static func attributePattern(for relative: String) -> String {
        relative.hasSuffix(".vault") ? "*.vault" : attributePattern("/" + relative)
    }

    /// The attribute line `--setup` commits.
    static func attributeLine(_ pattern: String) -> String { "\(pattern) merge=vault diff=vault -text" }

    /// The line of an earlier `--setup`, which kept git from diffing the file at all.
    static func olderAttributeLine(_ pattern: String) -> String { "\(pattern) merge=vault -diff -text" }

    /// A line of .gitattributes with its runs of spaces made one.
    static func normalized(_ line: String) -> String {
        line.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    /// Whether this clone's git config lacks the diff driver (a clone that never ran `--setup`, or
    /// ran an earlier one): sync then says how to have git diff name the items.
    static func lacksDiffDriver(_ repository: GitRepository) -> Bool {
        !repository.succeeds(["config", "--get", "diff.vault.textconv"])
    }

    /// `path` as a .gitattributes pattern: C-quoted when it holds a space, a tab, a quote or a
    /// backslash, which would otherwise end the pattern or be read as an escape.
    static func attributePattern(_ path: String) -> String {
        guard path.contains(where: { " \t\"\\\n".contains($0) }) else { return path }
        var quoted = "\""
        for character in path {
            switch character {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\t": quoted += "\\t"
            case "\n": quoted += "\\n"
            default: quoted.append(character)
            }
        }
        return quoted + "\""
    }

    private static func readAttributes(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw CommandFailure(.failure, "cannot read \(quoted(path)): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        return Terminal.readAll(fd)
    }

    private static func writeAttributes(_ text: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CommandFailure(.failure, "cannot write \(quoted(path)): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
            throw CommandFailure(.failure, "cannot write \(quoted(path)): \(String(cString: strerror(errno)))")
        }
    }

    /// The program the driver lines run: `vault` when the first `vault` on `path` is this very
    /// binary (the config then follows an upgrade or a move of the install, and names no home
    /// directory), else this binary's absolute path, shell-quoted, so git runs the vault that
    /// set it up rather than another one or none.
    static func driverProgram(path: String?) -> String {
        let this = executablePath()
        let candidates = (path ?? "").split(separator: ":").map { "\($0)/vault" }
        let onPath = candidates.first { candidate in access(candidate, X_OK) == 0 }
        if let onPath, let found = realPath(onPath), found == realPath(this) { return "vault" }
        return shellQuoted(this)
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// This binary's path, for the driver line: git runs it from any directory.
    static func executablePath() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        return count > 0 ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "vault"
    }
}
