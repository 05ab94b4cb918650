import Foundation
import Testing
@testable import VaultCLI

/// The committed completion scripts, run by the real shells: bash through
/// its completion function, fish through `complete -C`, zsh through a
/// pseudo-terminal and the completion system. A shell that is not installed
/// fails its tests (make test installs them).
@Suite struct CompletionTests {
    // MARK: bash

    @Test func bashCompletesCommands() throws {
        #expect(try bash("vault", "ad") == ["add"])
        // What `vault help` lists, no plumbing (git-credential, merge-driver …): those complete once typed.
        let offered = try bash("vault", "")
        #expect(offered == CommandTable.helpSections.flatMap(\.commands).map(\.name))
        for plumbing in ["git-credential", "merge-driver", "textconv", "docker-credential"] {
            #expect(offered?.contains(plumbing) == false)
        }
        #expect(try bash("vault", "git-") == [])
        #expect(try bash("vault", "git-credential", "--") != [])
        #expect(try fish("vault merge-") == [])
        #expect(try zsh("vault textc") == [])
    }

    @Test func bashCompletesOptions() throws {
        #expect(try bash("vault", "add", "--ser") == ["--service"])
        #expect(try bash("vault", "--vault", "v", "get", "--sh") == ["--show-secret"])
        #expect(try bash("vault", "--no-int") == ["--no-interaction"])
    }

    @Test func aliasesCompleteLikeTheirCommand() throws {
        #expect(try bash("vault", "ls", "--sea") == ["--search"])
        #expect(try bash("vault", "show", "--sh") == ["--show-secret"])
        #expect(try fish("vault ls --sea") == ["--search"])
        #expect(try zsh("vault show --show-") == ["--show-secret"])
    }

    @Test func bashCompletesOptionValues() throws {
        let classes = ["after-first-unlock", "always", "after-first-unlock-this-device-only", "always-this-device-only"]
        #expect(try bash("vault", "add", "--class", "a") == classes)
        // bash splits `--class=a` at the `=`.
        #expect(try bash("vault", "add", "--class", "=", "a") == classes)
        #expect(try bash("vault", "init", "--kdf-cost", "") == ["interactive", "testing"])
        #expect(try bash("vault", "help", "de") == ["delete", "device-key"])
    }

    @Test func bashAsksTheVaultForNames() throws {
        let calls = FileManager.default.temporaryDirectory.appendingPathComponent("vault-calls-\(UUID())")
        defer { try? FileManager.default.removeItem(at: calls) }
        #expect(try bash("vault", "--vault", "/v", "add", "--group", "", calls: calls) == ["ci", "default"])
        #expect(try String(contentsOf: calls, encoding: .utf8) == "--vault /v __complete groups\n")
        #expect(try bash("vault", "get", "-s", "gi") == [])
    }

    @Test func bashCompletesFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vault-files-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data().write(to: directory.appendingPathComponent("token.txt"))
        let prefix = directory.path + "/tok"
        #expect(try bash("vault", "add", "--secret-file", prefix) == [directory.path + "/token.txt"])
        #expect(try bash("vault", "--key-file", prefix) == [directory.path + "/token.txt"])
    }

    // MARK: fish

    @Test func fishCompletesCommands() throws {
        #expect(try fish("vault ad") == ["add"])
    }

    @Test func fishCompletesOptions() throws {
        #expect(try fish("vault add --ser") == ["--service"])
        #expect(try fish("vault --vault /tmp/v add --gr") == ["--group"])
    }

    @Test func fishCompletesOptionValues() throws {
        #expect(
            try fish("vault add --class a") == [
                "after-first-unlock", "after-first-unlock-this-device-only", "always", "always-this-device-only"
            ])
        #expect(
            try fish("vault list --class=w") == [
                "--class=when-passcode-set-this-device-only", "--class=when-unlocked", "--class=when-unlocked-this-device-only"
            ])
    }

    @Test func fishAsksTheVaultForNames() throws {
        #expect(try fish("vault add --group ") == ["ci", "default"])
    }

    // MARK: zsh

    @Test func zshScriptParses() throws {
        guard let zsh = installedTool("zsh") else { return }
        let result = try runTool(zsh, ["-n", completions.appendingPathComponent("_vault").path])
        #expect(result.status == 0, "zsh -n completions/_vault: \(result.stderr)")
    }

    @Test func zshCompletes() throws {
        #expect(try zsh("vault ad") == ["add"])
        #expect(try zsh("vault add --ser") == ["--service"])
        #expect(try zsh("vault add --class always-") == ["always-this-device-only"])
        #expect(try zsh("vault list --group ") == ["ci", "default"])
    }
}

// MARK: completing from a real vault

/// A vault with names as people have them: a space, two services with their
/// own accounts, and a control character that must never reach the terminal.
private func namesSandbox() throws -> Sandbox {
    let sandbox = try Sandbox()
    try sandbox.initWithKeyFile()
    for (service, account) in [("github", "ci-bot"), ("github", "admin user"), ("postgres", "admin"), ("evil\u{1b}[31m", "x")] {
        let added = try sandbox.vault(["add", "-s", service, "-a", account], stdin: Array("s".utf8))
        #expect(added.status == 0, "add: \(added.stderr)")
    }
    return sandbox
}

extension Sandbox {
    /// The sandbox's environment for a shell whose `vault` is the built binary.
    var realVaultEnvironment: [String: String] { environment.merging(["VAULT_REAL": "1"]) { $1 } }
}

@Suite struct RealVaultCompletionTests {
    @Test func bashQuotesNamesAndOffersTheAccountsOfTheServiceGiven() throws {
        let sandbox = try namesSandbox()
        #expect(try bash("vault", "get", "-s", "", sandbox: sandbox) == ["github", "postgres"])
        #expect(try bash("vault", "get", "-s", "github", "-a", "", sandbox: sandbox) == ["admin\\ user", "ci-bot"])
        #expect(try bash("vault", "get", "-s", "postgres", "-a", "", sandbox: sandbox) == ["admin"])
        #expect(try bash("vault", "get", "--service=github", "-a", "admin\\ ", sandbox: sandbox) == ["admin\\ user"])
    }

    @Test func zshCompletesNamesFromTheVault() throws {
        let sandbox = try namesSandbox()
        #expect(try zsh("vault get -s ", sandbox: sandbox) == ["github", "postgres"])
        #expect(try zsh("vault get -s postgres -a ", sandbox: sandbox) == ["admin"])
        #expect(try zsh("vault get -s github -a ", sandbox: sandbox) == ["admin user", "ci-bot"])
    }

    @Test func fishCompletesNamesFromTheVault() throws {
        let sandbox = try namesSandbox()
        #expect(try fish("vault get -s ", sandbox: sandbox) == ["github", "postgres"])
        #expect(try fish("vault get -s postgres -a ", sandbox: sandbox) == ["admin"])
        #expect(try fish("vault get -s github -a ", sandbox: sandbox) == ["admin user", "ci-bot"])
    }

    @Test func everyShellCompletesTheCommandAfterRunDashDash() throws {
        let sandbox = try namesSandbox()
        #expect(try bash("vault", "run", "--", "ech", sandbox: sandbox)?.contains("echo") == true)
        #expect(try zsh("vault run -- ech", sandbox: sandbox)?.contains("echo") == true)
        #expect(try fish("vault run -- ech", sandbox: sandbox)?.contains("echo") == true)
    }
}

// MARK: names that break completion (issue #35)

/// A vault with the names completion used to get wrong: a credential helper's
/// service with ':' and '/', a service with a space, a name with '/' (written
/// %2F), and a group that holds no item.
private func awkwardNamesSandbox() throws -> Sandbox {
    let sandbox = try Sandbox()
    try sandbox.initWithKeyFile()
    for (service, account, group) in [
        ("git:https://github.com", "alice", "default"), ("AWS prod", "deploy", "default"),
        ("a/b", "c", "default"), ("db", "admin", "ci")
    ] {
        let added = try sandbox.vault(["add", "-s", service, "-a", account, "--group", group], stdin: Array("s".utf8))
        #expect(added.status == 0, "add: \(added.stderr)")
    }
    let created = try sandbox.vault(["group", "create", "empty"])
    #expect(created.status == 0, "group create: \(created.stderr)")
    return sandbox
}

@Suite struct CompletionThatNeverBreaksTests {
    @Test func bashCompletesNamesWithColons() throws {
        let sandbox = try awkwardNamesSandbox()
        // bash splits git:ht into git : ht and replaces only what follows the last ':'.
        #expect(try bash("vault", "get", "-s", "git", ":", "ht", line: "vault get -s git:ht", sandbox: sandbox) == ["https://github.com"])
        #expect(try bash("vault", "get", "-s", "git", ":", "", line: "vault get -s git:", sandbox: sandbox) == ["https://github.com"])
        #expect(
            try bash(
                "vault", "get", "-s", "git", ":", "https", ":", "//github.com", "-a", "",
                line: "vault get -s git:https://github.com -a ", sandbox: sandbox) == ["alice"])
    }

    @Test func bashUnquotesTheServiceGiven() throws {
        let sandbox = try awkwardNamesSandbox()
        #expect(try bash("vault", "get", "-s", "\"AWS prod\"", "-a", "", sandbox: sandbox) == ["deploy"])
        #expect(try bash("vault", "get", "-s", "'AWS prod'", "-a", "", sandbox: sandbox) == ["deploy"])
        #expect(try bash("vault", "get", "-s", "AWS\\ prod", "-a", "", sandbox: sandbox) == ["deploy"])
    }

    @Test func bashCompletesInsideQuotesWithoutBackslashes() throws {
        let sandbox = try awkwardNamesSandbox()
        // Inside a quote bash replaces what follows it, and closes it.
        #expect(try bash("vault", "get", "-s", "'AWS p", sandbox: sandbox) == ["AWS prod"])
        #expect(try bash("vault", "get", "-s", "\"AWS p", sandbox: sandbox) == ["AWS prod"])
        #expect(try bash("vault", "get", "-s", "AWS\\ p", sandbox: sandbox) == ["AWS\\ prod"])
    }

    @Test func everyShellOffersEveryGroup() throws {
        let sandbox = try awkwardNamesSandbox()
        #expect(try bash("vault", "add", "--group", "", sandbox: sandbox) == ["ci", "default", "empty"])
        #expect(try zsh("vault add --group ", sandbox: sandbox) == ["ci", "default", "empty"])
        #expect(try fish("vault add --group ", sandbox: sandbox) == ["ci", "default", "empty"])
    }

    @Test func everyShellCompletesTheItemNameAsOneWord() throws {
        let sandbox = try awkwardNamesSandbox()
        #expect(try bash("vault", "get", "a", sandbox: sandbox) == ["a%2Fb/c"])
        #expect(try bash("vault", "otp", "ci/", sandbox: sandbox) == ["ci/db/admin"])
        #expect(try bash("vault", "delete", "db", sandbox: sandbox) == ["db/admin"])
        #expect(try zsh("vault get a", sandbox: sandbox) == ["a%2Fb/c"])
        #expect(try zsh("vault history ci/", sandbox: sandbox) == ["ci/db/admin"])
        // fish matches a lowercase prefix in any case: "a" would match AWS%20prod/deploy too.
        #expect(try fish("vault get a%", sandbox: sandbox) == ["a%2Fb/c"])
        #expect(try fish("vault get AWS", sandbox: sandbox) == ["AWS%20prod/deploy"])
        #expect(try fish("vault mv ci/", sandbox: sandbox) == ["ci/db/admin"])
        // A short name with ':' is one word in bash too.
        #expect(try bash("vault", "get", "git", ":", "h", line: "vault get git:h", sandbox: sandbox) == ["https:%2F%2Fgithub.com/alice"])
    }

    @Test func zshAndFishCompleteEscapedAndColonNames() throws {
        let sandbox = try awkwardNamesSandbox()
        #expect(try zsh("vault get -s AWS\\ prod -a ", sandbox: sandbox) == ["deploy"])
        #expect(try zsh("vault get -s 'AWS prod' -a ", sandbox: sandbox) == ["deploy"])
        #expect(try zsh("vault get -s git:", sandbox: sandbox) == ["git:https://github.com"])
        #expect(try fish("vault get -s AWS\\ prod -a ", sandbox: sandbox) == ["deploy"])
        #expect(try fish("vault get -s 'AWS prod' -a ", sandbox: sandbox) == ["deploy"])
        #expect(try fish("vault get -s git:", sandbox: sandbox) == ["git:https://github.com"])
        #expect(try zsh("vault get -s 'AWS p", sandbox: sandbox) == ["AWS prod"])
        #expect(try fish("vault get -s 'AWS p", sandbox: sandbox) == ["AWS prod"])
    }

    @Test func everyShellOffersOnlyTheItemsOfTheGroupOnTheLine() throws {
        let sandbox = try awkwardNamesSandbox()
        let added = try sandbox.vault(["add", "-s", "db", "-a", "prod"], stdin: Array("s".utf8))
        #expect(added.status == 0, "add: \(added.stderr)")
        #expect(try bash("vault", "get", "--group", "ci", "d", sandbox: sandbox) == ["db/admin"])
        #expect(try bash("vault", "get", "--group=ci", "d", line: "vault get --group=ci d", sandbox: sandbox) == ["db/admin"])
        #expect(try bash("vault", "get", "db", sandbox: sandbox) == ["db/admin", "db/prod"])
        #expect(try bash("vault", "get", "--group", "ci", "-s", "db", "-a", "", sandbox: sandbox) == ["admin"])
        #expect(try zsh("vault get --group ci d", sandbox: sandbox) == ["db/admin"])
        #expect(try fish("vault get --group ci d", sandbox: sandbox) == ["db/admin"])
        #expect(try sandbox.vault(["__complete", "items", "--group", "ci"]).stdoutText == "ci/db/admin\ndb/admin\n")
        #expect(try sandbox.vault(["__complete", "items", "--group", "no/such"]).stdoutText == "")
    }

    @Test func aLockedVaultSaysNamesAreHiddenWithoutOfferingTheNote() throws {
        let sandbox = try awkwardNamesSandbox()
        sandbox.environment["VAULT_KEY_FILE"] = nil
        let services = try sandbox.vault(["__complete", "services", "--notes"])
        #expect(services.stdoutText == "\t4 items not offered: locked (unlock to complete them)\n")
        #expect(try sandbox.vault(["__complete", "services"]).stdoutText == "")
        // Group names open without an unlock here: all offered, no note.
        #expect(try sandbox.vault(["__complete", "groups", "--notes"]).stdoutText == "ci\ndefault\nempty\n")
        // zsh shows the note as a message, never as a name; bash and fish do not ask for it.
        #expect(try zsh("vault get -s ", sandbox: sandbox) == [])
        #expect(try bash("vault", "get", "-s", "", sandbox: sandbox) == [])
        #expect(try fish("vault get -s ", sandbox: sandbox) == [])
    }

    @Test func bashCompletesTheCommandAfterRunDashDashAsThatCommand() throws {
        let sandbox = try awkwardNamesSandbox()
        let setup = "_fake() { COMPREPLY=($(compgen -W 'alpha beta' -- \"$2\")); }; complete -F _fake fakecmd"
        #expect(try bash("vault", "run", "--", "fakecmd", "al", setup: setup, sandbox: sandbox) == ["alpha"])
        #expect(try bash("vault", "run", "--env", "A=b", "--", "fakecmd", "", setup: setup, sandbox: sandbox) == ["alpha", "beta"])
        // With bash-completion loaded, its _command_offset does it (compopt works only at a real TAB).
        let bashCompletion = "/usr/share/bash-completion/bash_completion"
        guard FileManager.default.fileExists(atPath: bashCompletion) else {
            Issue.record("bash-completion is not installed: install it (scripts/install-deps.sh does)")
            return
        }
        let loaded = "source \(bashCompletion); compopt() { :; }; " + setup
        #expect(try bash("vault", "run", "--", "fakecmd", "be", setup: loaded, sandbox: sandbox) == ["beta"])
        #expect(try bash("vault", "run", "--", "ech", setup: loaded, sandbox: sandbox)?.contains("echo") == true)
    }
}

// MARK: running the shells and tools

/// Where the committed scripts live: completions/ at the package root.
private let completions = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("completions")

/// The candidates bash offers for the words, the last one being completed,
/// split as bash splits a line (at ':' too); `line` is the line typed when it
/// is not the words joined by spaces, and `setup` runs before completing.
/// `vault` is a function that prints the names "ci" and "default", and
/// appends its arguments to `calls` when given; with a sandbox, it is the
/// built binary on that sandbox's vault.
private func bash(_ words: String..., line: String? = nil, setup: String = "", calls: URL? = nil, sandbox: Sandbox? = nil) throws
    -> [String]?
{
    guard let bash = installedTool("bash") else { return nil }
    let script = """
        source "$1"; shift
        [[ -n "$VAULT_REAL" ]] || vault() { local IFS=' '; [[ -n "$VAULT_CALLS" ]] && echo "$*" >> "$VAULT_CALLS"; printf '%s\\n' ci default; }
        \(setup)
        COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="${VAULT_LINE:-$*}"; COMP_POINT=${#COMP_LINE}
        _vault
        printf '%s\\n' "${COMPREPLY[@]}"
        """
    let result = try runTool(
        bash,
        [
            "--norc", "--noprofile", "-c", script, "bash",
            completions.appendingPathComponent("vault.bash").path
        ] + words,
        environment: (sandbox?.realVaultEnvironment ?? [:])
            .merging(["VAULT_CALLS": calls?.path ?? "", "VAULT_LINE": line ?? ""]) { $1 })
    #expect(result.stderr.isEmpty, "bash: \(result.stderr)")
    return result.stdout.split(separator: "\n").map(String.init)
}

/// The candidates fish offers for a command line, without descriptions; with
/// a sandbox, `vault` is the built binary on that sandbox's vault.
private func fish(_ line: String, sandbox: Sandbox? = nil) throws -> [String]? {
    guard let fish = installedTool("fish") else { return nil }
    let script = """
        set fish_complete_path $argv[1]
        if not set -q VAULT_REAL; function vault; printf '%s\\n' ci default; end; end
        complete -C $argv[2]
        """
    let result = try runTool(
        fish, ["--no-config", "-c", script, completions.path, line],
        environment: sandbox?.realVaultEnvironment ?? [:])
    #expect(result.stderr.isEmpty, "fish: \(result.stderr)")
    return result.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
}

/// The candidates zsh's completion system offers for a command line: the
/// line is typed into an interactive zsh on a pseudo-terminal, followed by a
/// tab, and every `compadd` reports the words it matched. zsh drops what is
/// typed before its line editor starts, so the line waits for a READY mark.
private func zsh(_ line: String, sandbox: Sandbox? = nil) throws -> [String]? {
    guard let zsh = installedTool("zsh") else { return nil }
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("vault-zsh-\(UUID())")
    defer { try? FileManager.default.removeItem(at: output) }
    let script = """
        zmodload zsh/zpty
        zpty z zsh -f -i
        zpty -w z "PS1=''; fpath=(${(q)1} \\$fpath); autoload -Uz compinit; compinit -u -D"
        [[ -n $VAULT_REAL ]] || zpty -w z "vault() { print -l ci default }"
        zpty -w z 'compadd() { local -a hits; builtin compadd -O hits "$@"; (( $#hits )) && print -rl -- $hits >> '${(q)3}'; builtin compadd "$@" }'
        zpty -w z "print -r -- READY >> ${(q)3}"
        for i in {1..200}; do [[ -f $3 && "$(<$3)" == *READY ]] && break; sleep 0.05; done
        zpty -w -n z "$2"$'\\t'
        # Typed-ahead input makes zsh cut a slow completion short: wait until words come and stop coming.
        last=READY
        for i in {1..100}; do sleep 0.1; now="$(<$3)"; [[ $now != READY && $now == $last ]] && break; last=$now; done
        zpty -w z $'\\x15'"print -r -- DONE >> ${(q)3}"
        for i in {1..200}; do [[ "$(<$3)" == *DONE ]] && break; sleep 0.05; done
        zpty -d z
        """
    let result = try runTool(
        zsh, ["-f", "-c", script, "zsh", completions.path, line, output.path],
        environment: sandbox?.realVaultEnvironment ?? [:])
    #expect(result.status == 0, "zsh: \(result.stderr)")
    let words = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
    #expect(words.hasPrefix("READY\n") && words.hasSuffix("DONE\n"), "zsh did not finish completing \"\(line)\"")
    var seen: Set<Substring> = ["READY", "DONE"]
    return words.split(separator: "\n").filter { seen.insert($0).inserted }.map(String.init)
}

/// The path of an installed tool, or nil after recording that it is missing.
func installedTool(_ name: String) -> String? {
    let directories =
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        + ["/usr/bin", "/bin"]
    let path = directories.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    if path == nil {
        Issue.record("\(name) is not installed, so this cannot be tested: install it (apt-get install \(name)); make test does")
    }
    return path
}

/// What a tool run by `runTool` did.
struct ToolResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs `executable` with stdin from /dev/null and returns its status and output.
func runTool(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> ToolResult {
    // stderr goes to a file, so a full pipe can never block the child while stdout is read.
    let errors = FileManager.default.temporaryDirectory.appendingPathComponent("vault-stderr-\(UUID())")
    _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: errors) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let stdout = Pipe()
    process.standardOutput = stdout
    process.standardError = try FileHandle(forWritingTo: errors)
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ToolResult(
        status: process.terminationStatus,
        stdout: String(decoding: output, as: UTF8.self),
        stderr: (try? String(contentsOf: errors, encoding: .utf8)) ?? "")
}
