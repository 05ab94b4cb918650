import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import VaultTestSupport

/// `vault run` end to end with real child processes: resolution, exit status
/// and signals, masking over pipes and a pseudo-terminal.
@Suite struct RunTests {
    static let token = "tok-Secret-123"
    static let marker = "<concealed by vault>"

    /// A sandbox with a key-file vault holding github/ci-bot (default group) and db/admin (group ci).
    static func sandbox() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        for (arguments, secret) in [
            (["-s", "github", "-a", "ci-bot"], token), (["-s", "db", "-a", "admin", "--group", "ci"], "pg-Pass-456")
        ] {
            let add = try sandbox.vault(["add"] + arguments, stdin: Array(secret.utf8))
            guard add.status == 0 else { throw SandboxError.setupFailed(add.stderr) }
        }
        return sandbox
    }

    @Test func referencesFromEnvironmentEnvFlagsAndEnvFilesAreResolved() throws {
        let sandbox = try RunTests.sandbox()
        try sandbox.write(
            "app.env",
            Array(
                """
                # comment
                export FROM_FILE=vault://ci/db/admin
                PLAIN="not a secret"
                OVERRIDDEN=vault://nope/never
                """.utf8))
        let result = try sandbox.vault(
            [
                "run", "--env-file", sandbox.path("app.env"), "--env", "OVERRIDDEN=vault://github/ci-bot", "--no-masking", "--",
                "sh", "-c", "printf '%s|%s|%s|%s|%s' \"$FROM_ENV\" \"$FROM_FILE\" \"$PLAIN\" \"$OVERRIDDEN\" \"$UNTOUCHED\""
            ],
            environment: ["FROM_ENV": "vault://github/ci-bot", "UNTOUCHED": "https://example.com"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText == "\(RunTests.token)|pg-Pass-456|not a secret|\(RunTests.token)|https://example.com")
    }

    @Test func groupOptionAppliesToReferencesWithoutAGroup() throws {
        let sandbox = try RunTests.sandbox()
        let result = try sandbox.vault(["run", "--group", "ci", "--env", "P=vault://db/admin", "--no-masking", "--", "printenv", "P"])
        #expect(result.stdoutText == "pg-Pass-456\n", "\(result.stderr)")
        let wrongGroup = try sandbox.vault(["run", "--group", "ci", "--env", "T=vault://github/ci-bot", "--", "true"])
        #expect(wrongGroup.status == 44)
    }

    @Test func missingReferencesAreAllListedAndNothingRuns() throws {
        let sandbox = try RunTests.sandbox()
        try sandbox.write("missing.env", Array("B=vault://ci/nope/b\n".utf8))
        let result = try sandbox.vault(
            ["run", "--env-file", sandbox.path("missing.env"), "--env", "C=vault://github/ci-bot", "--", "touch", sandbox.path("ran")],
            environment: ["A": "vault://nope/a"])
        #expect(result.status == 44)
        #expect(result.stderr.contains("vault: error: 2 secret references cannot be resolved; nothing was run"))
        #expect(result.stderr.contains("vault:   A: vault://nope/a: no such item"))
        #expect(result.stderr.contains("missing.env:1 (B): vault://ci/nope/b: no such item"))
        #expect(result.stderr.contains("vault: hint: "))
        #expect(!result.stderr.contains(RunTests.token))
        #expect(sandbox.read("ran") == nil, "the command ran")

        let malformed = try sandbox.vault(["run", "--env", "X=vault://only-one", "--", "touch", sandbox.path("ran")])
        #expect(malformed.status == 2)
        #expect(malformed.stderr.contains("--env X: vault://only-one: it has 1 part"))
        #expect(sandbox.read("ran") == nil)
    }

    @Test func exitStatusAndSignalDeathPassThrough() throws {
        let sandbox = try RunTests.sandbox()
        #expect(try sandbox.vault(["run", "--", "sh", "-c", "exit 3"]).status == 3)
        #expect(try sandbox.vault(["run", "--", "sh", "-c", "kill -TERM $$"]).status == 128 + 15)
        #expect(try sandbox.vault(["run", "--", "true"]).status == 0)
        let notFound = try sandbox.vault(["run", "--", "no-such-command-x"])
        #expect(notFound.status == 127)
        #expect(notFound.stderr.contains("command not found: \"no-such-command-x\""))
        let usage = try sandbox.vault(["run"])
        #expect(usage.status == 2)
        #expect(usage.stderr.contains("no command to run"))
    }

    @Test(arguments: ["TERM", "INT", "HUP"])
    func signalsAreForwardedToTheChild(signal: String) throws {
        let sandbox = try RunTests.sandbox()
        // The child traps the signal, says so and exits 7; vault must pass both on.
        let child = "trap 'echo got-\(signal); exit 7' \(signal); echo ready; while :; do sleep 0.05; done"
        let script = """
            vault run -- sh -c "\(child)" > out 2>&1 &
            pid=$!
            for i in $(seq 1 100); do grep -q ready out 2>/dev/null && break; sleep 0.05; done
            kill -\(signal) $pid
            wait $pid
            echo "exit=$?"
            cat out
            """
        let result = try sandbox.run("/bin/sh", ["-c", script])
        #expect(result.stdoutText.contains("exit=7"), "\(result.stdoutText) \(result.stderr)")
        #expect(result.stdoutText.contains("got-\(signal)"))
    }

    // MARK: masking

    @Test func secretsAreMaskedOnStdoutAndStderrInterleaved() throws {
        let sandbox = try RunTests.sandbox()
        // Each line goes out in two writes split inside the secret, alternating streams.
        let child = """
            i=0; while [ $i -lt 50 ]; do
              printf 'out %s tok-Sec' $i; printf 'ret-123 end\\n'
              printf 'err %s tok-Se' $i >&2; sleep 0.001; printf 'cret-123 end\\n' >&2
              i=$((i+1))
            done
            """
        let result = try sandbox.vault(["run", "--env", "T=vault://github/ci-bot", "--", "sh", "-c", child])
        #expect(result.status == 0, "\(result.stderr)")
        let expectedOut = (0..<50).map { "out \($0) \(RunTests.marker) end\n" }.joined()
        let expectedErr = (0..<50).map { "err \($0) \(RunTests.marker) end\n" }.joined()
        #expect(result.stdoutText == expectedOut)
        #expect(result.stderr == expectedErr)
    }

    @Test func multiLineSecretsAndShortSecretNotice() throws {
        let sandbox = try RunTests.sandbox()
        #expect(
            try sandbox.vault(["add", "-s", "pem", "-a", "k"], stdin: Array("-----BEGIN-----\nAAAAsecretBBBB\n-----END-----".utf8)).status
                == 0)
        #expect(try sandbox.vault(["add", "-s", "pin", "-a", "k"], stdin: Array("42".utf8)).status == 0)
        let result = try sandbox.vault([
            "run", "--env", "PEM=vault://pem/k", "--env", "PIN=vault://pin/k", "--",
            "sh", "-c", "printf '%s\\n' \"$PEM\"; printf 'only line: AAAAsecretBBBB\\n'; echo \"pin $PIN\""
        ])
        #expect(result.stdoutText == "\(RunTests.marker)\nonly line: \(RunTests.marker)\npin 42\n")
        #expect(result.stderr == "vault: note: 1 secret is shorter than 4 bytes and not masked in the output\n")
    }

    @Test func binaryOutputPassesThroughByteExact() throws {
        let sandbox = try RunTests.sandbox()
        var generator = SeededGenerator(test: "binaryOutputPassesThroughByteExact")
        var blob = (0..<(3 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        // Bytes that start the secret, but do not finish it, must come out too.
        blob += Array("tok-Secret-12".utf8) + [0, 255]
        try sandbox.write("blob.bin", blob)
        let result = try sandbox.vault(["run", "--env", "T=vault://github/ci-bot", "--", "cat", sandbox.path("blob.bin")])
        #expect(result.status == 0)
        #expect(result.stdout.count == blob.count)
        #expect(result.stdout == blob)
    }

    @Test func partialLineIsSeenBeforeTheChildExits() throws {
        let sandbox = try RunTests.sandbox()
        // The child finishes only once the partial line was seen (or 60 s went by: a failure, not a hang).
        let script = """
            vault run --env T=vault://github/ci-bot -- sh -c 'printf "50%% done"; until [ -e go ]; do sleep 0.05; done; echo " finished"' > out &
            pid=$!
            n=0; until grep -q '50% done' out || [ "$n" -ge 1200 ]; do n=$((n + 1)); sleep 0.05; done
            printf 'while running: [%s]\\n' "$(cat out)"
            touch go
            wait $pid
            printf 'after: [%s]\\n' "$(cat out)"
            """
        let result = try sandbox.run("/bin/sh", ["-c", script])
        #expect(result.stdoutText == "while running: [50% done]\nafter: [50% done finished]\n", "\(result.stderr)")
    }

    @Test func childOnAPseudoTerminalSeesATerminalAndIsStillMasked() throws {
        let sandbox = try RunTests.sandbox()
        // script(1) gives vault a terminal on stdin, stdout and stderr.
        let inner =
            "vault run -- sh -c 'if [ -t 1 ] && [ -t 0 ]; then echo child-has-tty; fi; printf \"%s\\n\" \"$T\"; tty'; echo vault-exit=$?"
        let result = try sandbox.run("/usr/bin/script", ["-qec", inner, "/dev/null"], environment: ["T": "vault://github/ci-bot"])
        let text = result.stdoutText
        #expect(text.contains("child-has-tty"), "\(text) \(result.stderr)")
        #expect(text.contains(RunTests.marker))
        #expect(!text.contains(RunTests.token))
        #expect(text.contains("/dev/pts/"))
        #expect(text.contains("vault-exit=0"))

        let piped = try sandbox.vault(["run", "--", "sh", "-c", "if [ -t 1 ]; then echo tty; else echo no-tty; fi"])
        #expect(piped.stdoutText == "no-tty\n")
    }

    /// RLIMIT_MEMLOCK of this process, which vault inherits: 0 means mlock is refused (unless root).
    static let memoryLockLimit: UInt = {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(__RLIMIT_MEMLOCK.rawValue), &limit)
        return getuid() == 0 ? .max : limit.rlim_cur
    }()

    @Test(.enabled(if: memoryLockLimit > 0, "RLIMIT_MEMLOCK is 0: vault may lock nothing, so VmLck stays 0"))
    func secretsAreInLockedMemoryWhileTheChildRuns() throws {
        let sandbox = try RunTests.sandbox()
        // The child is vault's child: /proc/$PPID/status is vault's, read while vault waits on it.
        let result = try sandbox.vault([
            "run", "--env", "T=vault://github/ci-bot", "--", "sh", "-c",
            "sed -n 's/^VmLck:[[:space:]]*\\([0-9]*\\) kB$/\\1/p' /proc/$PPID/status"
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let lockedKiB = Int(result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(lockedKiB > 0, "VmLck of vault while its child runs: \(result.stdoutText)")
    }

    @Test(.enabled(if: getuid() == 0, "reading the memory of vault, which is not dumpable, needs root"))
    func whileTheChildRunsVaultHoldsTheSecretOnlyInLockedMemory() throws {
        let sandbox = try RunTests.sandbox()
        let scanner = Sandbox.packageRoot + "/Tests/VaultCLITests/Support/scan-memory.py"
        // The needle comes from the child's environment, so vault's own argv does not hold it.
        let result = try sandbox.vault([
            "run", "--env", "T=vault://github/ci-bot", "--", "sh", "-c",
            "NEEDLE=\"$T\" /usr/bin/python3 \(scanner) $PPID"
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let copies = result.stdoutText.split(separator: "\n").map { $0.replacingOccurrences(of: RunTests.marker, with: "") }
        #expect(!copies.isEmpty, "the scan finds the secret where vault holds it")
        #expect(copies.allSatisfy { $0.hasPrefix("locked ") }, "copies of the secret in vault's memory: \(copies)")
    }

    @Test func withoutACredentialInCIItFailsAtOnceListingTheWays() throws {
        let sandbox = try RunTests.sandbox()
        sandbox.environment["VAULT_KEY_FILE"] = nil
        let started = Date()
        let result = try sandbox.vault(
            ["run", "--env", "T=vault://github/ci-bot", "--", "touch", sandbox.path("ran")],
            environment: ["CI": "true"])
        #expect(result.status == 36)
        #expect(Date().timeIntervalSince(started) < 60, "hung (waiting for a prompt?)")
        for way in ["--key-file", "--passphrase-file", "VAULT_KEY_FILE", "VAULT_PASSPHRASE_FILE", "VAULT_SESSION", "VAULT_CREDENTIAL"] {
            #expect(result.stderr.contains(way), "\(way) missing from: \(result.stderr)")
        }
        #expect(sandbox.read("ran") == nil)
        let passphrase = try sandbox.vault(["env", "--format", "json"], environment: ["VAULT_NO_INTERACTION": "1"])
        #expect(passphrase.status == 36)
    }
}
