import Foundation
import Testing

/// A scenario file: a transcript of commands run against the built binary in
/// a fresh HOME, each followed by what it must print and exit with. The
/// language (one instruction per line, `#` comments):
///
///     vault ARGS…            run vault; it must exit 0
///     [44] vault ARGS…       run vault; it must exit 44
///     [0] sh SCRIPT          run /bin/sh -c SCRIPT in HOME (same exit rule)
///     stdin TEXT             stdin of the next command (escapes: \n \t \0 \xHH \\)
///     stdout TEXT            the last command's stdout is exactly TEXT (escapes)
///     stdout-has TEXT        … contains TEXT; also stderr-has, stdout-lacks, stderr-lacks
///     stdout-empty           nothing on stdout; also stderr-empty
///     stderr-lines N         stderr has exactly N lines
///     env NAME=VALUE         set for later commands; unenv NAME removes it
///     file NAME TEXT         write a 0600 file (escapes); chmod MODE NAME
///     snapshot / unchanged   remember the vault's bytes / check they are the same
///     login NAME             later commands run in the test login NAME, a session keyring of
///                            its own, with the keyring on; `login blocked` where keyctl is
///                            refused (see Sandbox.login); $KEYRING_HELPER is Support/keyring.py
///
/// Arguments split like a shell's words ('…', "…", backslash); $HOME and
/// $VAULT expand to the sandbox HOME and its default vault path, $FIXTURES to
/// Tests/VaultCLITests/Fixtures.
struct Scenario {
    let name: String
    let lines: [String]

    /// Every scenario file in Tests/VaultCLITests/Scenarios, by name; only those named in
    /// SCENARIOS (comma-separated, e.g. SCENARIOS=sessions.txt) when it is set.
    static var all: [String] {
        let chosen = ProcessInfo.processInfo.environment["SCENARIOS"].map { Set($0.split(separator: ",").map(String.init)) }
        return files.filter { chosen?.contains($0) != false }
    }

    /// Every scenario file, whatever SCENARIOS says.
    static var files: [String] {
        let directory = Sandbox.packageRoot + "/Tests/VaultCLITests/Scenarios"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".txt") }.sorted()
    }

    static func load(_ name: String) throws -> Scenario {
        let text = try String(contentsOfFile: Sandbox.packageRoot + "/Tests/VaultCLITests/Scenarios/" + name, encoding: .utf8)
        return Scenario(name: name, lines: text.components(separatedBy: "\n"))
    }

    /// Runs every line; each failed expectation is recorded with its file and line.
    func run() throws {
        let sandbox = try Sandbox()
        var pendingStdin: [UInt8] = []
        var last: RunResult?
        var snapshot: [UInt8]?
        for (number, rawLine) in lines.enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let place = "\(name):\(number + 1): \(line)"
            let (word, rest) = Scenario.splitFirst(line)
            func expand(_ text: String) -> String {
                text.replacingOccurrences(of: "$VAULT", with: sandbox.vaultPath).replacingOccurrences(of: "$HOME", with: sandbox.home)
                    .replacingOccurrences(of: "$FIXTURES", with: Sandbox.packageRoot + "/Tests/VaultCLITests/Fixtures")
            }
            func requireLast() -> RunResult? {
                if last == nil { Issue.record("\(place): no command has run yet") }
                return last
            }
            switch word {
            case "stdin":
                pendingStdin = Scenario.unescape(rest)
            case "env":
                let parts = rest.split(separator: "=", maxSplits: 1).map(String.init)
                sandbox.environment[parts[0]] = parts.count > 1 ? expand(parts[1]) : ""
            case "unenv":
                sandbox.environment[rest] = nil
            case "login":
                try sandbox.login(rest)
            case "file":
                let (fileName, content) = Scenario.splitFirst(rest)
                try sandbox.write(expand(fileName), Scenario.unescape(content))
            case "chmod":
                let (mode, fileName) = Scenario.splitFirst(rest)
                try FileManager.default.setAttributes(
                    [.posixPermissions: Int(mode, radix: 8)!], ofItemAtPath: sandbox.path(expand(fileName)))
            case "snapshot":
                snapshot = sandbox.read(sandbox.vaultPath)
                if snapshot == nil { Issue.record("\(place): there is no vault to snapshot") }
            case "unchanged":
                #expect(sandbox.read(sandbox.vaultPath) == snapshot, "\(place): the vault changed")
            case "stdout":
                if let result = requireLast() {
                    #expect(result.stdout == Scenario.unescape(rest), "\(place): stdout was \(String(reflecting: result.stdoutText))")
                }
            case "stdout-has", "stdout-lacks", "stderr-has", "stderr-lacks":
                if let result = requireLast() {
                    let haystack = word.hasPrefix("stdout") ? result.stdoutText : result.stderr
                    let found = haystack.contains(expand(rest))
                    #expect(found == word.hasSuffix("-has"), "\(place): \(word.prefix(6)) was \(String(reflecting: haystack))")
                }
            case "stdout-empty":
                if let result = requireLast() {
                    #expect(result.stdout.isEmpty, "\(place): stdout was \(String(reflecting: result.stdoutText))")
                }
            case "stderr-empty":
                if let result = requireLast() {
                    #expect(result.stderr.isEmpty, "\(place): stderr was \(String(reflecting: result.stderr))")
                }
            case "stderr-lines":
                if let result = requireLast() {
                    let count = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).count - 1
                    #expect(count == Int(rest), "\(place): stderr had \(count) lines: \(String(reflecting: result.stderr))")
                }
            default:
                var expected: Int32 = 0
                var command = line
                if line.hasPrefix("["), let close = line.firstIndex(of: "]") {
                    expected = Int32(line[line.index(after: line.startIndex)..<close])!
                    command = String(line[line.index(after: close)...]).trimmingCharacters(in: .whitespaces)
                }
                let (program, arguments) = Scenario.splitFirst(command)
                let result: RunResult
                switch program {
                case "vault":
                    result = try sandbox.vault(Scenario.words(arguments).map(expand), stdin: pendingStdin)
                case "sh":
                    result = try sandbox.run("/bin/sh", ["-c", expand(arguments)], stdin: pendingStdin)
                default:
                    Issue.record("\(place): unknown instruction \"\(program)\"")
                    continue
                }
                #expect(
                    result.status == expected,
                    "\(place): exit \(result.status), expected \(expected); stderr: \(result.stderr)")
                pendingStdin = []
                last = result
            }
        }
    }

    private static func splitFirst(_ text: String) -> (String, String) {
        guard let space = text.firstIndex(of: " ") else { return (text, "") }
        return (String(text[..<space]), String(text[text.index(after: space)...]))
    }

    /// Splits a command line into words as a POSIX shell would (no expansion).
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in text {
            if escaped {
                current.append(character)
                escaped = false
            } else if let q = quote {
                if character == q {
                    quote = nil
                } else if character == "\\" && q == "\"" {
                    escaped = true
                } else {
                    current.append(character)
                }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character == "\\" {
                escaped = true
                inWord = true
            } else if character == " " || character == "\t" {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }

    /// Decodes \n \t \r \0 \xHH \\ in a scenario's text.
    static func unescape(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "\\"), i + 1 < bytes.count else {
                out.append(bytes[i])
                i += 1
                continue
            }
            switch bytes[i + 1] {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "0"): out.append(0)
            case UInt8(ascii: "x") where i + 3 < bytes.count:
                out.append(UInt8(String(decoding: bytes[(i + 2)...(i + 3)], as: UTF8.self), radix: 16)!)
                i += 2
            default: out.append(bytes[i + 1])
            }
            i += 2
        }
        return out
    }
}
