import VaultCore

/// Settings from `${XDG_CONFIG_HOME:-~/.config}/vault/config`: one
/// `key = value` per line, `#` starts a comment, blank lines are ignored.
/// An unknown key or a malformed line is an error naming the line, so a typo
/// never silently does nothing. Since it decides what vault does (a first-run
/// wipe, the trust pin), a file that group or others may change or that another
/// user owns (root excepted), or one in such a directory, is refused, as ssh refuses such files.
struct Config: Sendable {
    /// The config file this was read from (it need not exist).
    let path: String
    /// The settings, by key.
    let values: [ConfigKey: String]

    /// A config with these values, as if read from `path`; `load(environment:)` reads the file.
    init(path: String, values: [ConfigKey: String]) {
        self.path = path
        self.values = values
    }

    /// The config file's path for this environment.
    static func path(environment: [String: String]) -> String {
        SettingsFile.directory(environment: environment) + "/config"
    }

    /// Reads the config file; a missing file is an empty config. Throws `writableByOthers` or
    /// `ownedByAnotherUser` for a file, or a directory holding it, that someone else could have written.
    static func load(environment: [String: String]) throws -> Config {
        let path = path(environment: environment)
        guard SettingsFile.exists(path) else { return Config(path: path, values: [:]) }
        return try parse(try text(at: path), path: path)
    }

    /// The config file's text; not UTF-8 is an error naming the file.
    private static func text(at path: String) throws -> String {
        let bytes = try SettingsFile.read(path)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CommandFailure.invalidConfig("\"\(path)\" is not UTF-8 text")
        }
        return text
    }

    static func parse(_ text: String, path: String) throws -> Config {
        var values: [ConfigKey: String] = [:]
        for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmed()
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw CommandFailure.invalidConfig("\(path):\(number + 1): expected \"key = value\"")
            }
            let name = line[..<equals].trimmed()
            guard let key = ConfigKey(rawValue: name) else {
                throw CommandFailure.invalidConfig(
                    "\(path):\(number + 1): unknown key \"\(name)\" (known: \(ConfigKey.allCases.map(\.name).sorted().joined(separator: ", ")))"
                )
            }
            values[key] = line[line.index(after: equals)...].trimmed()
        }
        return Config(path: path, values: values)
    }

    /// The value of `key`, if set.
    func value(_ key: ConfigKey) -> String? { values[key] }

    /// Sets `key` to `value` in the config file of `environment`: the line of that key replaced
    /// (comments and other lines kept), or one added; the file written atomically, 0600, in a
    /// directory made 0700 if missing. Throws as `load` does, for the directory even when the file is missing.
    static func set(_ key: ConfigKey, to value: String, environment: [String: String]) throws {
        let path = path(environment: environment)
        try SettingsFile.refuseUntrustedDirectory(of: path)
        var lines: [String] = []
        if SettingsFile.exists(path) {
            let text = try text(at: path)
            _ = try parse(text, path: path)  // a file vault could not read is not written over
            lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
        }
        let line = "\(key.name) = \(value)"
        func keyOf(_ line: String) -> String? { line.firstIndex(of: "=").map { line[..<$0].trimmed() } }
        if let existing = lines.firstIndex(where: { keyOf($0) == key.name }) {
            lines[existing] = line
        } else {
            lines.append(line)
        }
        try SettingsFile.write(Array((lines.joined(separator: "\n") + "\n").utf8), to: path)
    }
}

extension StringProtocol {
    /// Without leading and trailing blanks (space, tab, carriage return).
    func trimmed() -> String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" || first == "\r" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" || last == "\r" { slice.removeLast() }
        return String(slice)
    }
}
