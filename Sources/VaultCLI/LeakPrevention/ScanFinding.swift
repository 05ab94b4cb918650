import VaultCore

/// One hit of `vault scan`, as it is printed and as a baseline accepts it:
/// by place and item (or reference), never by value.
struct ScanFinding {
    /// `path:line:column` in a file, `commit:path:line` in git history.
    var place: String
    var item: LeakSubject
    var encoding: SecretEncoding
    var path: String
    var line: Int
    var column: Int
    var commit: String?

    init(file path: String, hit: LeakHit, item: LeakSubject) {
        self.path = path
        line = hit.line
        column = hit.column
        self.item = item
        encoding = hit.source.encoding
        place = "\(ScanFinding.printable(path)):\(hit.line):\(hit.column)"
    }

    /// A hit in history; when no commit adds the blob, its id stands in the commit's place.
    init(history leak: HistoryLeak, item: LeakSubject) {
        path = leak.path
        line = leak.hit.line
        column = leak.hit.column
        self.item = item
        encoding = leak.hit.source.encoding
        commit = leak.commit
        place = "\(leak.commit ?? leak.blob):\(ScanFinding.printable(leak.path)):\(leak.hit.line)"
    }

    /// What a baseline line holds for this hit.
    var baselineKey: String { place + "\t" + item.name }

    /// A path as it is, or quoted with escapes when it holds a tab or a character `HiddenCharacters.mustShow` names.
    private static func printable(_ path: String) -> String {
        HiddenCharacters.occur(in: path) ? quoted(path) : path
    }

    /// The hit as a line of `vault scan` output.
    var text: String { "\(place): \(item.name) (\(encoding.rawValue))\n" }

    /// The hit as a member of `--json` output's "hits".
    var json: String {
        var members = [("place", ItemOutput.jsonString(place))]
        if let commit { members.append(("commit", ItemOutput.jsonString(commit))) }
        members += [("path", ItemOutput.jsonString(path)), ("line", String(line))]
        if commit == nil { members.append(("column", String(column))) }
        members.append(("item", ItemOutput.jsonString(item.name)))
        if case .item(let key) = item {
            members += [
                ("group", ItemOutput.jsonString(key.group.name)), ("service", ItemOutput.jsonString(key.service)),
                ("account", ItemOutput.jsonString(key.account))
            ]
        }
        members.append(("encoding", ItemOutput.jsonString(encoding.rawValue)))
        return "{" + members.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }
}

/// The hits a project has accepted, so that a CI job fails only on new ones:
/// a text file of `PLACE<TAB>ITEM` lines (no secret, no value), written by
/// `vault scan --baseline FILE --update-baseline` and meant to be committed.
struct ScanBaseline {
    static let header = "# vault scan baseline: accepted hits, one per line as PLACE<TAB>ITEM; no secret is stored here\n"
    var accepted: Set<String>

    init(reading path: String) throws {
        let bytes: [UInt8]
        do {
            bytes = try PlainFile.read(path)
        } catch VaultError.storage(.io(_, _, let errno)) where errno == 2 {
            throw UsageError(
                "no baseline at \(quoted(path))",
                hint: "accept the current hits with 'vault scan --baseline \(shellQuoted(path)) --update-baseline'")
        }
        accepted = Set(
            String(decoding: bytes, as: UTF8.self).split(separator: "\n")
                .filter { !$0.hasPrefix("#") }.map(String.init))
    }

    /// Writes every hit of `findings` as accepted, replacing the file.
    static func write(_ findings: [ScanFinding], to path: String) throws {
        let lines = Set(findings.map(\.baselineKey)).sorted().map { $0 + "\n" }
        try PlainFile.writePrivately(Array((header + lines.joined()).utf8), to: path)
    }
}
