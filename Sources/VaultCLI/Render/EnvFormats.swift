import VaultCrypto
import VaultCore

/// The output formats of `vault env`: each turns (name, value) pairs into
/// text that its reader reads back exactly. The text is built in locked
/// memory, since it holds every secret.
enum EnvFormat: String, CaseIterable {
    /// `NAME='value'`: single quotes, which bash and `vault run --env-file`
    /// read literally, and python-dotenv too but for `${NAME}`, which it
    /// expands even there. A value that cannot be written so that all of them
    /// read it back is refused (see `unwritable`).
    case dotenv
    /// `export NAME='value'`, for `eval` or `source` in sh, bash and zsh.
    case shell
    /// One JSON object, names to values.
    case json
    /// GitHub Actions: `::add-mask::` commands on stdout, assignments appended to $GITHUB_ENV.
    case github

    /// The names whose values dotenv cannot write so that bash and python-dotenv
    /// read the same value: no `'` fits inside single quotes, python-dotenv
    /// reads `\\` and `\'` as escapes, a CR as a line end and `${` as the start of
    /// a variable, and no quoting avoids all of these in both readers.
    /// Checked for every value before anything is printed.
    func unwritable(_ variables: [(name: String, value: SecretBytes)]) -> [String] {
        guard self == .dotenv else { return [] }
        return variables.filter { $0.value.withUnsafeBytes(EnvFormat.refusedByDotenv) }.map(\.name)
    }

    private static func refusedByDotenv(_ bytes: UnsafeRawBufferPointer) -> Bool {
        for (index, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: "'"), UInt8(ascii: "\\"), 0x0A, 0x0D: return true
            case UInt8(ascii: "$") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "{"): return true
            default: continue
            }
        }
        return false
    }

    /// The text for every format but github.
    func render(_ variables: [(name: String, value: SecretBytes)]) -> SecretBytes {
        // Room for every assignment unescaped, so the locked buffer seldom grows (each growth is a copy).
        var out = SecretBytesBuilder(capacity: variables.reduce(64) { $0 + $1.name.utf8.count + $1.value.count + 16 })
        switch self {
        case .dotenv:
            for (name, value) in variables {
                out.append("\(name)='")
                out.append(value)
                out.append("'\n")
            }
        case .shell:
            for (name, value) in variables {
                out.append("export \(name)=")
                EnvFormat.appendSingleQuoted(value, to: &out)
                out.append("\n")
            }
        case .json:
            out.append(variables.isEmpty ? "{}\n" : "{\n")
            for (index, (name, value)) in variables.enumerated() {
                out.append("  ")
                var name = name
                name.withUTF8 { EnvFormat.appendJSONString(UnsafeRawBufferPointer($0), to: &out) }
                out.append(": ")
                value.withUnsafeBytes { EnvFormat.appendJSONString($0, to: &out) }
                out.append(index == variables.count - 1 ? "\n}\n" : ",\n")
            }
        case .github:
            GitHubEnvironment.appendAssignments(variables, to: &out)
        }
        return out.finish()
    }

    /// `'value'`, each `'` written as `'\''`.
    static func appendSingleQuoted(_ value: SecretBytes, to out: inout SecretBytesBuilder) {
        out.append("'")
        value.withUnsafeBytes { out.append($0) { $0 == UInt8(ascii: "'") ? "'\\''" : nil } }
        out.append("'")
    }

    /// A JSON string of text already known to be UTF-8 (a name or a secret, escaped where it lies,
    /// never copied into a String): `"` `\` and control characters escaped.
    static func appendJSONString(_ text: UnsafeRawBufferPointer, to out: inout SecretBytesBuilder) {
        out.append("\"")
        out.append(text) { byte in
            if let escaped = escapedByBackslash(UInt32(byte)) { return escaped }
            return byte < 0x20 ? "\\u00" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16) : nil
        }
        out.append("\"")
    }
}

/// GitHub Actions' conventions for `$GITHUB_ENV` and workflow commands, as
/// its own toolkit (`core.exportVariable`, `core.setSecret`) writes them.
enum GitHubEnvironment {
    /// `::add-mask::VALUE` for each one-line value, and for a multi-line value one for each of its
    /// lines that holds secret: the runner matches log lines, and splits a multi-line mask into
    /// its lines itself, so the whole value is not sent (it would mask its armour lines too). A
    /// line is left out when it is blank, shorter than the masker's floor (`MaskPatterns.minimumLength`, 4 bytes), or a PEM
    /// boundary (`-----BEGIN …-----`, `-----END …-----`), which is the same in every key: masking it
    /// would hide that text everywhere in the log and guard nothing. Data is escaped as the toolkit does.
    static func maskCommands(_ values: [SecretBytes]) -> SecretBytes {
        var out = SecretBytesBuilder()
        for value in values {
            value.withUnsafeBytes { bytes in
                var pieces = [UnsafeRawBufferPointer(bytes)]
                if bytes.contains(0x0A) || bytes.contains(0x0D) {
                    pieces = bytes.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D }).map(UnsafeRawBufferPointer.init(rebasing:))
                        .filter(holdsSecret)
                }
                for piece in pieces where !piece.isEmpty {
                    out.append("::add-mask::")
                    appendEscapedData(piece, to: &out)
                    out.append("\n")
                }
            }
        }
        return out.finish()
    }

    /// Whether a line of a multi-line secret is worth a mask: not blank, at least 4 bytes, not a PEM boundary.
    private static func holdsSecret(_ line: UnsafeRawBufferPointer) -> Bool {
        let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        let text = Array(Array(line.drop(while: isBlank)).reversed().drop(while: isBlank).reversed())
        guard text.count >= MaskPatterns.minimumLength else { return false }
        let dashes = Array("-----".utf8)
        let isBoundary = text.starts(with: dashes + Array("BEGIN ".utf8)) || text.starts(with: dashes + Array("END ".utf8))
        return !(isBoundary && text.count > 10 && Array(text.suffix(5)) == dashes)
    }

    /// `NAME=value` for a one-line value; for a multi-line one
    /// `NAME<<DELIMITER`, the value, `DELIMITER`, with a random delimiter that
    /// the value does not contain.
    static func appendAssignments(
        _ variables: [(name: String, value: SecretBytes)], to out: inout SecretBytesBuilder,
        delimiter: () -> String = randomDelimiter
    ) {
        for (name, value) in variables {
            let multiLine = value.withUnsafeBytes { $0.contains(0x0A) || $0.contains(0x0D) }
            guard multiLine else {
                out.append("\(name)=")
                out.append(value)
                out.append("\n")
                continue
            }
            var mark = delimiter()
            while contains(value, mark) { mark = delimiter() }
            out.append("\(name)<<\(mark)\n")
            out.append(value)
            out.append("\n\(mark)\n")
        }
    }

    private static func contains(_ value: SecretBytes, _ text: String) -> Bool {
        let needle = Array(text.utf8)
        return value.withUnsafeBytes { bytes in
            guard bytes.count >= needle.count else { return false }
            return (0...(bytes.count - needle.count)).contains { start in
                needle.indices.allSatisfy { bytes[start + $0] == needle[$0] }
            }
        }
    }

    static func randomDelimiter() -> String {
        "ghadelimiter_" + SecureRandom.bytes(16).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// Workflow-command data escaping: % CR LF.
    static func appendEscapedData(_ bytes: UnsafeRawBufferPointer, to out: inout SecretBytesBuilder) {
        out.append(bytes) { byte in
            switch byte {
            case UInt8(ascii: "%"): return "%25"
            case 0x0D: return "%0D"
            case 0x0A: return "%0A"
            default: return nil
            }
        }
    }
}
