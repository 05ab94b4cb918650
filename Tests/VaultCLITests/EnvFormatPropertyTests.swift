import Foundation
import Testing

/// Random secrets through every `vault env --format`, each read back by its
/// real consumer: bash (`set -a; . ./.env`) for shell and dotenv,
/// python-dotenv and `vault run --env-file` for dotenv, Python's json, and
/// the `$GITHUB_ENV` reader. Prints its seed; VAULT_TEST_SEED replays one.
@Suite struct EnvFormatPropertyTests {
    /// SplitMix64: small, and the same sequence for the same seed everywhere.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func pick<T>(_ choices: [T]) -> T { choices[Int(next() % UInt64(choices.count))] }
    }

    /// Pieces that break naive quoting in one reader or another.
    static let tricky = [
        "`touch pwned`", "$(id)", "$HOME", "${HOME}", "'", "\"", "\\", "\\n", "\n", "\r\n", "\t", " ", "#",
        "=", "EOF", "ghadelimiter_", "%0A", "é", "☕", "a", "Z", "9", "-", "::add-mask::"
    ]
    /// The pieces dotenv can write: no ', \, line break or ${.
    static let dotenvSafe = tricky.filter { !refusedByDotenv($0) }

    /// Whether a value holds ', \, a line break (by bytes: "\r\n" is one Character) or ${.
    static func refusedByDotenv(_ value: String) -> Bool {
        value.utf8.contains { "'\\\n\r".utf8.contains($0) } || value.contains("${")
    }
    /// Bytes no environment variable can hold (NUL) or that are not UTF-8.
    static let binary: [[UInt8]] = [[0], [0xFF], [0xC3], [0xE2, 0x82], [0xC0, 0x80]]

    static func value(_ generator: inout Generator, from pieces: [String]) -> String {
        (0..<(1 + Int(generator.next() % 8))).map { _ in generator.pick(pieces) }.joined()
    }

    @Test func everyFormatReadsBackExactlyOrRefusesWholly() throws {
        let seed = ProcessInfo.processInfo.environment["VAULT_TEST_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        print("EnvFormatPropertyTests: VAULT_TEST_SEED=\(seed)")
        var generator = Generator(state: seed)
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        var text: [String: String] = [:]
        var safe: [String: String] = [:]
        for index in 0..<10 {
            text["T\(index)_X"] = Self.value(&generator, from: EnvFormatPropertyTests.tricky)
            safe["S\(index)_X"] = Self.value(&generator, from: EnvFormatPropertyTests.dotenvSafe)
        }
        for (group, values) in [("text", text), ("safe", safe)] {
            for (name, value) in values {
                let add = try sandbox.vault(
                    ["add", "-s", String(name.dropLast(2)).lowercased(), "-a", "x", "--group", group],
                    stdin: Array(value.utf8))
                #expect(add.status == 0, "\(add.stderr) (VAULT_TEST_SEED=\(seed))")
            }
        }
        try check(sandbox, group: "text", text, seed: seed)
        try check(sandbox, group: "safe", safe, seed: seed)

        // A binary secret: every format skips it with a warning naming it (issue 19), and prints and appends nothing of it.
        for index in 0..<3 {
            var bytes = Array(Self.value(&generator, from: EnvFormatPropertyTests.tricky).utf8)
            bytes.insert(contentsOf: generator.pick(EnvFormatPropertyTests.binary), at: Int(generator.next() % UInt64(bytes.count + 1)))
            let group = "binary\(index)"
            let add = try sandbox.vault(["add", "-s", "bin", "-a", "x", "--group", group, "--create-group"], stdin: bytes)
            #expect(add.status == 0, "\(add.stderr) (VAULT_TEST_SEED=\(seed))")
            for format in ["dotenv", "shell", "json", "github"] {
                try sandbox.write("github_env", [])
                let env = try sandbox.vault(
                    ["env", "--group", group, "--only", "BIN_X", "--format", format],
                    environment: ["GITHUB_ENV": sandbox.path("github_env")])
                let printed = env.stdout + (sandbox.read("github_env") ?? [])
                #expect(
                    env.status == 0 && env.stderr.contains("skipped BIN_X")
                        && !String(decoding: printed, as: UTF8.self).contains("BIN_X"),
                    "\(format) with \(bytes): \(env.status) \(env.stderr) (VAULT_TEST_SEED=\(seed))")
            }
        }
    }

    private func check(_ sandbox: Sandbox, group: String, _ expected: [String: String], seed: UInt64) throws {
        let names = expected.keys.sorted()
        let context = "group \(group) (VAULT_TEST_SEED=\(seed))"
        // bash: every name's value, NUL-separated (no value holds a NUL).
        let printAll = names.map { "printf '%s\\0' \"$\($0)\"" }.joined(separator: "; ")
        func bashValues(_ file: String) throws -> [String: String]? {
            let read = try sandbox.run("/bin/bash", ["-c", "set -a; . ./\(file) && { \(printAll); }"])
            guard read.status == 0 else { return nil }
            let parts = read.stdout.split(separator: 0, omittingEmptySubsequences: false).dropLast()
            return Dictionary(uniqueKeysWithValues: zip(names, parts.map { String(decoding: $0, as: UTF8.self) }))
        }

        // The job accepts every name it expects: what is tested here is how values are written.
        let accepted = ["--only", names.joined(separator: ",")]
        let shell = try sandbox.vault(["env", "--group", group, "--format", "shell"] + accepted)
        #expect(shell.status == 0, "\(shell.stderr) \(context)")
        try sandbox.write("env.sh", shell.stdout)
        #expect(try bashValues("env.sh") == expected, "shell, \(context)")

        let json = try sandbox.vault(["env", "--group", group, "--format", "json"])
        #expect(json.status == 0, "\(json.stderr) \(context)")
        let python = try sandbox.run(
            "/usr/bin/python3", ["-c", "import json, sys; json.dump(json.load(sys.stdin), sys.stdout, ensure_ascii=True)"],
            stdin: json.stdout)
        #expect(python.status == 0, "\(python.stderr) \(context)")
        #expect((try? JSONSerialization.jsonObject(with: Data(python.stdout))) as? [String: String] == expected, "json, \(context)")

        try sandbox.write("github_env", [])
        let github = try sandbox.vault(
            ["env", "--group", group, "--format", "github"] + accepted, environment: ["GITHUB_ENV": sandbox.path("github_env")])
        #expect(github.status == 0, "\(github.stderr) \(context)")
        #expect(try parseGitHubEnv(String(decoding: sandbox.read("github_env") ?? [], as: UTF8.self)) == expected, "github, \(context)")

        let dotenv = try sandbox.vault(["env", "--group", group, "--format", "dotenv"] + accepted)
        let refused = expected.filter { Self.refusedByDotenv($0.value) }.keys.sorted()
        guard refused.isEmpty else {
            #expect(dotenv.status == 2 && dotenv.stdout.isEmpty, "dotenv must refuse \(refused), \(context)")
            #expect(dotenv.stderr.contains("hint: use --format shell"), "\(dotenv.stderr)")
            for name in refused { #expect(dotenv.stderr.contains(name)) }
            return
        }
        #expect(dotenv.status == 0, "\(dotenv.stderr) \(context)")
        try sandbox.write(".env", dotenv.stdout)
        #expect(try bashValues(".env") == expected, "dotenv in bash, \(context)")
        let pythonDotenv = try sandbox.run(
            "/usr/bin/python3", ["-c", "import dotenv, json, sys; json.dump(dotenv.dotenv_values('.env'), sys.stdout, ensure_ascii=True)"])
        #expect(pythonDotenv.status == 0, "\(pythonDotenv.stderr) \(context)")
        #expect(
            (try? JSONSerialization.jsonObject(with: Data(pythonDotenv.stdout))) as? [String: String] == expected,
            "dotenv in python-dotenv, \(context)")
        let printNames = names.map { "printf '%s\\0' \"$\($0)\"" }.joined(separator: "; ")
        let run = try sandbox.vault(["run", "--no-masking", "--env-file", sandbox.path(".env"), "--", "/bin/bash", "-c", printNames])
        let parts = run.stdout.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
        #expect(Dictionary(uniqueKeysWithValues: zip(names, parts)) == expected, "dotenv in vault run --env-file, \(context)")
    }
}
