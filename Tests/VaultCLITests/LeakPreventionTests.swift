import Foundation
import Testing

/// `vault scan`, `vault redact` and `vault run --mount` end to end: the built
/// binary in a temp HOME, against a git repository built by the test.
@Suite struct LeakPreventionTests {
    static let token = "ghp_LeakTestToken-0123"
    static let deployKey = "deploy+Key/with=chars"
    static let binarySecret = "bin\u{1}Secret\u{7f}Value"
    static let pin = "483920"

    /// A sandbox whose vault holds the four secrets above.
    static func sandbox() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        let items: [([String], String)] = [
            (["-s", "github", "-a", "ci"], token), (["-s", "deploy", "-a", "ci", "--group", "ci"], deployKey),
            (["-s", "blob", "-a", "bin"], binarySecret), (["-s", "pin", "-a", "me"], pin)
        ]
        for (arguments, secret) in items {
            let add = try sandbox.vault(["add"] + arguments, stdin: Array(secret.utf8))
            guard add.status == 0 else { throw SandboxError.setupFailed(add.stderr) }
        }
        return sandbox
    }

    /// Runs git in `directory` of the sandbox with a fixed identity; its stdout.
    @discardableResult
    static func git(_ sandbox: Sandbox, _ directory: String, _ arguments: [String]) throws -> String {
        let result = try sandbox.run(
            "/usr/bin/git", ["-C", sandbox.path(directory)] + arguments,
            environment: [
                "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
                "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid"
            ])
        guard result.status == 0 else { throw SandboxError.setupFailed("git \(arguments): \(result.stderr)") }
        return result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A new repository `repo` in the sandbox with `app.env` holding `content`, staged (and committed with `commit`).
    static func repository(_ sandbox: Sandbox, appEnv content: String, commit message: String? = nil) throws {
        try FileManager.default.createDirectory(atPath: sandbox.path("repo"), withIntermediateDirectories: true)
        try git(sandbox, "repo", ["init", "-q"])
        try sandbox.write("repo/app.env", Array(content.utf8))
        try git(sandbox, "repo", ["add", "."])
        if let message { try git(sandbox, "repo", ["commit", "-qm", message]) }
    }

    /// Every way a secret could show up in vault's output: its bytes and encodings.
    static func leakedForms(of secret: String) -> [String] {
        let bytes = Data(secret.utf8)
        let base64 = bytes.base64EncodedString()
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        return [
            secret, base64, base64.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_"),
            hex, hex.uppercased(), secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? secret
        ]
    }

    static func expectNoSecret(in result: RunResult, _ comment: Comment? = nil) {
        for secret in [token, deployKey, binarySecret, pin] {
            for form in leakedForms(of: secret) {
                #expect(!result.stdoutText.contains(form) && !result.stderr.contains(form), "\(form) printed")
            }
        }
    }

    @Test func historyScanFindsRemovedEncodedAndBinaryLeaksByCommitAndBaselineAcceptsThem() throws {
        let sandbox = try LeakPreventionTests.sandbox()
        try LeakPreventionTests.repository(
            sandbox, appEnv: "DEBUG=1\nGITHUB_TOKEN=\(LeakPreventionTests.token)\nPIN=\(LeakPreventionTests.pin)\n",
            commit: "config")
        let leakingCommit = try LeakPreventionTests.git(sandbox, "repo", ["rev-parse", "HEAD"])
        try LeakPreventionTests.git(sandbox, "repo", ["rm", "-q", "app.env"])
        try LeakPreventionTests.git(sandbox, "repo", ["commit", "-qm", "remove the token"])
        // The token base64-encoded inside user:token, as a docker config holds it; a secret in a binary file.
        let auth = Data("bot:\(LeakPreventionTests.token)".utf8).base64EncodedString()
        try sandbox.write("repo/docker.json", Array("{\n  \"auths\": {\"r.example\": {\"auth\": \"\(auth)\"}}\n}\n".utf8))
        try sandbox.write("repo/data.bin", [0, 1, 2, 0xFF] + Array(LeakPreventionTests.binarySecret.utf8) + [0, 0xFE])
        try LeakPreventionTests.git(sandbox, "repo", ["add", "."])
        try LeakPreventionTests.git(sandbox, "repo", ["commit", "-qm", "docker and data"])
        let laterCommit = try LeakPreventionTests.git(sandbox, "repo", ["rev-parse", "HEAD"])
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("repo/app.env")))

        let scan = try sandbox.vault(["scan", "--git-history", sandbox.path("repo")])
        #expect(scan.status == 1, "\(scan.stderr)")
        #expect(
            scan.stdoutText == """
                \(laterCommit):data.bin:1: vault://default/blob/bin (raw)
                \(laterCommit):docker.json:2: vault://default/github/ci (base64)
                \(leakingCommit):app.env:2: vault://default/github/ci (raw)

                """)
        #expect(scan.stderr.contains("vault://default/pin/me"), "the short secret is listed as skipped")
        #expect(scan.stderr.contains("shorter than 8 bytes"))
        LeakPreventionTests.expectNoSecret(in: scan)

        let json = try sandbox.vault(["scan", "--git-history", "--json", sandbox.path("repo")])
        #expect(json.status == 1)
        let report = try JSONSerialization.jsonObject(with: Data(json.stdout)) as? [String: Any]
        let hits = report?["hits"] as? [[String: Any]] ?? []
        #expect(hits.map { $0["commit"] as? String } == [laterCommit, laterCommit, leakingCommit])
        #expect((report?["skipped"] as? [[String: Any]])?.first?["item"] as? String == "vault://default/pin/me")
        LeakPreventionTests.expectNoSecret(in: json)

        let baseline = sandbox.path("baseline.txt")
        let accept = try sandbox.vault(["scan", "--git-history", "--baseline", baseline, "--update-baseline", sandbox.path("repo")])
        #expect(accept.status == 0, "\(accept.stderr)")
        #expect(accept.stderr.contains("wrote 3 accepted hits"))
        let baselineText = String(decoding: sandbox.read("baseline.txt") ?? [], as: UTF8.self)
        #expect(baselineText.contains("\(leakingCommit):app.env:2\tvault://default/github/ci"))
        for form in LeakPreventionTests.leakedForms(of: LeakPreventionTests.token) { #expect(!baselineText.contains(form)) }
        let accepted = try sandbox.vault(["scan", "--git-history", "--baseline", baseline, sandbox.path("repo")])
        #expect(accepted.status == 0, "\(accepted.stdoutText)\(accepted.stderr)")
        #expect(accepted.stdout.isEmpty)
        #expect(accepted.stderr.contains("3 more accepted by the baseline"))

        // A new leak fails the scan again, and only it is printed.
        try sandbox.write("repo/deploy.sh", Array("curl -H 'key: \(LeakPreventionTests.deployKey)'\n".utf8))
        try LeakPreventionTests.git(sandbox, "repo", ["add", "."])
        try LeakPreventionTests.git(sandbox, "repo", ["commit", "-qm", "deploy"])
        let newCommit = try LeakPreventionTests.git(sandbox, "repo", ["rev-parse", "HEAD"])
        let again = try sandbox.vault(["scan", "--git-history", "--baseline", baseline, sandbox.path("repo")])
        #expect(again.status == 1)
        #expect(again.stdoutText == "\(newCommit):deploy.sh:1: vault://ci/deploy/ci (raw)\n")
        LeakPreventionTests.expectNoSecret(in: again)
    }

    @Test func scanFailuresNeverExitOne() throws {
        let sandbox = try LeakPreventionTests.sandbox()
        try FileManager.default.createDirectory(atPath: sandbox.path("plain"), withIntermediateDirectories: true)
        let notARepository = try sandbox.vault(["scan", "--git-history", sandbox.path("plain")])
        #expect(notARepository.status == 3, "\(notARepository.stderr)")
        #expect(notARepository.stderr.contains("vault: error: git rev-list failed"))
        #expect(notARepository.stderr.contains("vault: hint: "))
        let locked = try sandbox.vault(["scan", sandbox.path("plain")], environment: ["VAULT_KEY_FILE": ""])
        #expect(locked.status == 36)
        let noGit = try sandbox.vault(["scan", "--git-history", sandbox.path("plain")], environment: ["PATH": "/nonexistent"])
        #expect(noGit.status == 3)
        #expect(noGit.stderr.contains("cannot run git"))
    }

    @Test func fileScanSearchesIgnoredFilesUnlessToldAndFollowsNoSymlink() throws {
        let sandbox = try LeakPreventionTests.sandbox()
        try FileManager.default.createDirectory(atPath: sandbox.path("work/logs"), withIntermediateDirectories: true)
        try LeakPreventionTests.git(sandbox, "work", ["init", "-q"])
        try sandbox.write("work/.gitignore", Array("logs/\n".utf8))
        try sandbox.write("work/logs/build.log", Array("Authorization: token \(LeakPreventionTests.token)\n".utf8))
        try sandbox.write(
            "work/config.json", Array("{\"key\": \"\(LeakPreventionTests.deployKey.replacingOccurrences(of: "/", with: "\\/"))\"}".utf8))
        try sandbox.write("outside.txt", Array(LeakPreventionTests.token.utf8))
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("work/link.txt"), withDestinationPath: sandbox.path("outside.txt"))

        let all = try sandbox.vault(["scan", sandbox.path("work")])
        #expect(all.status == 1)
        let root = sandbox.path("work")
        #expect(
            all.stdoutText == """
                \(root)/config.json:1:10: vault://ci/deploy/ci (json)
                \(root)/logs/build.log:1:22: vault://default/github/ci (raw)

                """)
        let tracked = try sandbox.vault(["scan", "--skip-ignored", sandbox.path("work")])
        #expect(tracked.status == 1)
        #expect(tracked.stdoutText == "\(root)/config.json:1:10: vault://ci/deploy/ci (json)\n")
        let other = try sandbox.vault(["scan", "--exit-code", "7", sandbox.path("work")])
        #expect(other.status == 7)
        let reportOnly = try sandbox.vault(["scan", "--exit-code", "0", sandbox.path("work")])
        #expect(reportOnly.status == 0)
        #expect(!reportOnly.stdout.isEmpty)
        LeakPreventionTests.expectNoSecret(in: all)
    }

    @Test func redactConcealsSecretsStraddlingEveryChunkBoundary() throws {
        let sandbox = try LeakPreventionTests.sandbox()
        let secret = LeakPreventionTests.token
        // vault redact reads 256 KiB at a time from a file; the secret is cut
        // at each of its inner offsets by one read boundary, and a pipe cuts it elsewhere again.
        let chunk = 1 << 18
        var input: [UInt8] = []
        var expected: [UInt8] = []
        for cut in 1..<secret.utf8.count {
            let filler = [UInt8](repeating: UInt8(ascii: "."), count: (cut * chunk - cut) - input.count)
            input += filler
            expected += filler
            input += Array(secret.utf8)
            expected += Array("<concealed by vault>".utf8)
        }
        input += Array("\nend \(LeakPreventionTests.deployKey) \(LeakPreventionTests.pin)\n".utf8)
        expected += Array("\nend <concealed by vault> <concealed by vault>\n".utf8)
        let fromFile = try sandbox.vault(["redact"], stdin: input)
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        #expect(fromFile.stdout == expected)
        try sandbox.write("input.log", input)
        let fromPipe = try sandbox.run("/bin/sh", ["-c", "cat input.log | vault redact"])
        #expect(fromPipe.stdout == expected)
        let oneGroup = try sandbox.vault(["redact", "--group", "ci"], stdin: Array("\(secret) \(LeakPreventionTests.deployKey)".utf8))
        #expect(oneGroup.stdoutText == "\(secret) <concealed by vault>")
    }

    @Test func redactFailsClosed() throws {
        let sandbox = try LeakPreventionTests.sandbox()
        let input = Array("deploying with \(LeakPreventionTests.token)\n".utf8)
        let locked = try sandbox.vault(["redact"], stdin: input, environment: ["VAULT_KEY_FILE": ""])
        #expect(locked.status == 36)
        #expect(locked.stdout.isEmpty)
        let noVault = try sandbox.vault(["redact"], stdin: input, environment: ["VAULT_PATH": sandbox.path("none.vault")])
        #expect(noVault.status != 0)
        #expect(noVault.stdout.isEmpty)
        let badGroup = try sandbox.vault(["redact", "--group", "no such"], stdin: input)
        #expect(badGroup.status == 2)
        #expect(badGroup.stdout.isEmpty)
    }

    @Test func mountServesTheRenderingOnAFIFOAndRemovesIt() throws {
        let sandbox = try LeakPreventionTests.sandbox()
        try sandbox.write("app.tpl", Array("token: \"{{ vault://github/ci }}\"\nkey: {{ vault://ci/deploy/ci }}\n".utf8))
        let script = """
            stat -c %F "$VAULT_MOUNT_PATH" > kind; cat "$VAULT_MOUNT_PATH" > first
            timeout 5 cat "$VAULT_MOUNT_PATH" > second 2> second.err; echo "$?" > second.status
            echo "$VAULT_MOUNT_PATH" > path
            """
        let run = try sandbox.vault([
            "run", "--no-masking", "--mount", "./app.yml=app.tpl", "--mount-max-reads", "1", "--", "sh", "-c", script
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(String(decoding: sandbox.read("kind") ?? [], as: UTF8.self) == "fifo\n")
        #expect(
            String(decoding: sandbox.read("first") ?? [], as: UTF8.self)
                == "token: \"\(LeakPreventionTests.token)\"\nkey: \(LeakPreventionTests.deployKey)\n")
        #expect(sandbox.read("second") == [], "a read beyond --mount-max-reads got data")
        #expect(String(decoding: sandbox.read("second.status") ?? [], as: UTF8.self) != "0\n")
        #expect(String(decoding: sandbox.read("path") ?? [], as: UTF8.self) == sandbox.path("app.yml") + "\n")
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("app.yml")))
    }

    @Test func mountWithoutTemplateMovesReferencedVariablesToThePipe() throws {
        let sandbox = try LeakPreventionTests.sandbox()
        let script =
            "printf '%s|' \"${TOKEN-unset}\" \"$PLAIN\"; cat \"$VAULT_MOUNT_PATH\"; cat \"$VAULT_MOUNT_PATH\"; printf %s \"$VAULT_MOUNT_PATH\" > path"
        let dotenv = try sandbox.vault([
            "run", "--no-masking", "--env", "TOKEN=vault://github/ci", "--env", "PLAIN=x", "--mount", "",
            "--", "sh", "-c", script
        ])
        #expect(dotenv.status == 0, "\(dotenv.stderr)")
        #expect(dotenv.stdoutText == "unset|x|TOKEN='\(LeakPreventionTests.token)'\nTOKEN='\(LeakPreventionTests.token)'\n")
        let path = String(decoding: sandbox.read("path") ?? [], as: UTF8.self)
        #expect(path.hasPrefix(sandbox.path("run/vault/mount-")) && path.hasSuffix("/secrets.env"), "\(path)")
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: (path as NSString).deletingLastPathComponent), "the private directory is left")

        let json = try sandbox.vault([
            "run", "--env", "TOKEN=vault://github/ci", "--mount", "s.json", "--mount-format", "json",
            "--", "sh", "-c", "cat \"$VAULT_MOUNT_PATH\""
        ])
        #expect(json.stdoutText == "{\n  \"TOKEN\": \"<concealed by vault>\"\n}\n", "masking covers what the child prints from the pipe")
    }

    @Test func mountIsRemovedWhenTheChildIsKilled() throws {
        let sandbox = try LeakPreventionTests.sandbox()
        let run = try sandbox.vault([
            "run", "--env", "T=vault://github/ci", "--mount", "./k.env", "--",
            "sh", "-c", "stat -c %F k.env > kind; kill -KILL $$"
        ])
        #expect(run.status == 128 + 9)
        #expect(String(decoding: sandbox.read("kind") ?? [], as: UTF8.self) == "fifo\n")
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("k.env")))
    }

    @Test func aReaderBlockedInOpenIsReleasedWhenTheChildExits() throws {
        let sandbox = try LeakPreventionTests.sandbox()
        // More than a pipe holds, so the server stays busy with a first reader that never reads.
        try sandbox.write("big.tpl", Array((String(repeating: "x", count: 200_000) + "{{ vault://github/ci }}\n").utf8))
        let script = """
            P="$VAULT_MOUNT_PATH"; first=$(stat -c %i "$P")
            (exec 3<"$P"; sleep 2) </dev/null >/dev/null 2>&1 &
            while [ "$(stat -c %i "$P" 2>/dev/null)" = "$first" ]; do sleep 0.01; done
            (cat "$P" > second.out; echo "$?" > second.status) </dev/null >/dev/null 2>&1 &
            reader=$!
            tries=0
            until grep -qs wait_for_partner /proc/$reader/wchan $(sed 's|[0-9][0-9]*|/proc/&/wchan|g' /proc/$reader/task/$reader/children 2>/dev/null) \\
                || [ $tries -ge 1000 ]; do sleep 0.01; tries=$((tries + 1)); done
            exit 0
            """
        let run = try sandbox.vault(["run", "--mount", "./big.env=big.tpl", "--", "sh", "-c", script])
        #expect(run.status == 0, "\(run.stderr)")
        // The second reader was blocked in open when the child exited: vault let it go with end-of-file.
        var status: [UInt8]?
        for _ in 0..<500 where status == nil {
            status = sandbox.read("second.status").flatMap { $0.isEmpty ? nil : $0 }
            if status == nil { usleep(20_000) }
        }
        #expect(status.map { String(decoding: $0, as: UTF8.self) } == "0\n", "the blocked reader was not released")
        #expect(sandbox.read("second.out") == [])
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("big.env")))
    }

    @Test func mountRefusesBadOptions() throws {
        let sandbox = try LeakPreventionTests.sandbox()
        try sandbox.write("taken", [])
        try sandbox.write("app.tpl", [])
        for (arguments, message) in [
            (["--mount", "./taken"], "cannot create the pipe"),
            (["--mount-max-reads", "1"], "--mount-max-reads needs --mount"),
            (["--mount", "x", "--mount-max-reads", "many"], "is not a whole number"),
            (["--mount", "x", "--mount-format", "yaml"], "--mount-format"),
            (["--mount", "x=app.tpl", "--mount-format", "json"], "--mount-format applies only without a template"),
            (["--mount", "./nope/x"], "cannot create the pipe")
        ] {
            let result = try sandbox.vault(["run"] + arguments + ["--", "touch", sandbox.path("ran")])
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("vault: hint: "))
            #expect(sandbox.read("ran") == nil, "the command ran")
        }
        #expect(sandbox.read("taken") == [], "an existing file was replaced")
    }
}
