import VaultCore

/// Settings from `${XDG_CONFIG_HOME:-~/.config}/vault/config`: one
/// `key = value` per line, `#` starts a comment, blank lines are ignored.
/// An unknown key or a malformed line is an error naming the line, so a typo
/// never silently does nothing. Since it decides what vault does (a first-run
/// wipe, the trust pin), a file that group or others may change or that another
/// user owns (root excepted), or one in such a directory, is refused, as ssh refuses such files.
struct Config: Sendable {
    /// The keys vault reads, with what each sets (docs/CLI.md lists them too).
    static let knownKeys: [String: String] = [
        "group": "the access group of commands that name none (like VAULT_GROUP)",
        "backend": "where items live: file or secret-service (like VAULT_BACKEND)",
        "session-timeout": "the idle timeout of `vault unlock` sessions, e.g. 15m (like --timeout)",
        "first-run-marker": "a marker file: when it is missing, the first command that opens the vault wipes first (like `vault first-run`)",
        "min-epoch": "the lowest key epoch of a vault file accepted, against rollback (like VAULT_MIN_EPOCH)",
        "first-run-groups": "the groups that first-run-marker wipes, separated by commas; the whole vault when unset",
        "identity": "an age identity file (like --identity)",
        "trash-days": "how many days a deleted item stays in the trash before a write purges it (30 when unset; 0 keeps it until the next write)",
        "sync-commit-names": "yes to name the groups and items a `vault sync` commit changed in its message; by default it counts them by group id, since names are sealed in the file",
        "trust": "the trust fingerprint a vault's header must be signed under, from `vault trust` (like VAULT_TRUST)",
        "no-keyring": "true keeps unlock sessions out of the login's kernel keyring (like --no-keyring)",
        "tpm": "the TPM that seals device keys: a TCTI string such as device:/dev/tpmrm0, or off (like VAULT_TPM)",
        "secret-service-group": "the vault group `vault secret-service serve` serves as the desktop's login collection (desktop when unset)",
        "secret-service-idle": "the seconds `vault secret-service serve` waits with no client before it exits (60 when unset)",
        "secret-service-prompt": "a program (systemd-ask-password) `vault secret-service serve` asks the passphrase through when a program asks it to unlock; it prints the passphrase",
        "tpm-pcrs": "the PCRs (sha256 bank) a device key's TPM seal binds to, separated by commas; 7 when unset",
    ]

    /// The config file this was read from (it need not exist).
    let path: String
    /// The settings, by key; only keys of `knownKeys`.
    let values: [String: String]

    /// A config with these values, as if read from `path`; `load(environment:)` reads the file.
    init(path: String, values: [String: String]) {
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
        var values: [String: String] = [:]
        for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmed()
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw CommandFailure.invalidConfig("\(path):\(number + 1): expected \"key = value\"")
            }
            let key = line[..<equals].trimmed()
            guard knownKeys[key] != nil else {
                throw CommandFailure.invalidConfig(
                    "\(path):\(number + 1): unknown key \"\(key)\" (known: \(knownKeys.keys.sorted().joined(separator: ", ")))")
            }
            values[key] = line[line.index(after: equals)...].trimmed()
        }
        return Config(path: path, values: values)
    }

    /// The value of `key`, if set.
    func value(_ key: String) -> String? { values[key] }

    /// Sets `key` to `value` in the config file of `environment`: the line of that key replaced
    /// (comments and other lines kept), or one added; the file written atomically, 0600, in a
    /// directory made 0700 if missing. Throws as `load` does, for the directory even when the file is missing.
    static func set(_ key: String, to value: String, environment: [String: String]) throws {
        precondition(knownKeys[key] != nil, "an unknown config key")
        let path = path(environment: environment)
        try SettingsFile.refuseUntrustedDirectory(of: path)
        var lines: [String] = []
        if SettingsFile.exists(path) {
            let text = try text(at: path)
            _ = try parse(text, path: path)  // a file vault could not read is not written over
            lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
        }
        let line = "\(key) = \(value)"
        func keyOf(_ line: String) -> String? { line.firstIndex(of: "=").map { line[..<$0].trimmed() } }
        if let existing = lines.firstIndex(where: { keyOf($0) == key }) {
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
