import Foundation
import Testing
@testable import VaultCore
#if canImport(Glibc)
import Glibc
#endif

/// Issue 37's findings about what lies around the vault file: a runtime directory another user
/// made first, and a roster `member list` calls damaged. (A config file others can change and a
/// `--vault` that is no file are the scenarios config-owner.txt and vault-not-a-file.txt.)
@Suite struct HostileSurroundingsTests {
    /// With XDG_RUNTIME_DIR unset, another user who makes `/tmp/vault-UID` first used to block
    /// every write and `unlock` of that user, with an error that blamed the directory's mode.
    /// Now the commands go on working in a directory of the user's own, and leave the squatted
    /// one alone. The tests run as root: the victim is a fresh uid (`setpriv`), root the squatter.
    @Test func aSquattedRuntimeDirectoryBlocksNothing() throws {
        let uid = UInt32.random(in: 100_000..<1_000_000)
        let sandbox = try Sandbox()
        sandbox.environment["XDG_RUNTIME_DIR"] = nil
        #expect(chown(sandbox.home, uid, uid) == 0)
        let squatted = "/tmp/vault-\(uid)"
        #expect(mkdir(squatted, 0o755) == 0)
        defer { try? FileManager.default.removeItem(atPath: squatted) }

        func victim(_ arguments: [String], stdin: String = "", environment: [String: String] = [:]) throws -> RunResult {
            try sandbox.run(
                "/usr/bin/setpriv", ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", Sandbox.vaultBinary] + arguments,
                stdin: Array(stdin.utf8), environment: environment)
        }
        let created = try victim(["init", "--key-file", sandbox.path("key")])
        #expect(created.status == 0, "\(created.stderr)")
        let unlocked = try victim(["unlock", "--raw", "--key-file", sandbox.path("key")])
        #expect(unlocked.status == 0, "\(unlocked.stderr)")
        let session = ["VAULT_SESSION": unlocked.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)]
        let added = try victim(["add", "-s", "db", "-a", "app"], stdin: "s3cret", environment: session)
        #expect(added.status == 0, "\(added.stderr)")
        let read = try victim(["get", "-s", "db", "-a", "app"], environment: session)
        #expect(read.status == 0 && read.stdoutText == "s3cret", "\(read.stderr)")
        let locked = try victim(["lock"], environment: session)
        #expect(locked.status == 0, "\(locked.stderr)")

        // Nothing went into the squatter's directory; the user's own is private.
        #expect((try? FileManager.default.contentsOfDirectory(atPath: squatted)) == [])
        var info = stat()
        #expect(lstat(sandbox.home + "/.local/state/vault/runtime", &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFDIR && info.st_mode & 0o777 == 0o700 && info.st_uid == uid)
    }

    /// The seen counters decide which old copy of a vault opens here: a state directory, or a seen
    /// record, that other users could change is refused as the config is, the vault left as it was
    /// (both read on, exit 0, before). Given back its mode, the vault reads again.
    @Test func aStateDirectoryOrSeenRecordOthersCanChangeIsRefused() throws {
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        #expect(try sandbox.vault(["add", "-s", "db", "-a", "app"], stdin: Array("s3cret".utf8)).status == 0)
        let state = sandbox.path(".local/state/vault")
        let records = ((try? FileManager.default.contentsOfDirectory(atPath: state + "/seen")) ?? []).filter { !$0.contains(".") }
        let record = try #require(records.first.map { state + "/seen/" + $0 }, "no seen record was made")
        let before = sandbox.read(sandbox.vaultPath)
        for (path, mode, restored) in [(state, mode_t(0o777), mode_t(0o700)), (record, 0o666, 0o600)] {
            #expect(chmod(path, mode) == 0)
            let read = try sandbox.vault(["get", "-s", "db", "-a", "app"])
            #expect(read.status != 0 && read.stdout.isEmpty, "\(path) mode \(String(mode, radix: 8)): exit \(read.status)")
            #expect(read.stderr.contains("\"\(path)\" may be changed by other users"), "\(read.stderr)")
            let write = try sandbox.vault(["add", "-s", "db2", "-a", "app"], stdin: Array("x".utf8))
            #expect(write.status != 0 && sandbox.read(sandbox.vaultPath) == before, "a write went on: \(write.stderr)")
            #expect(chmod(path, restored) == 0)
        }
        let again = try sandbox.vault(["get", "-s", "db", "-a", "app"])
        #expect(again.status == 0 && again.stdoutText == "s3cret", "\(again.stderr)")
    }

    /// A runtime directory the user chose (`$XDG_RUNTIME_DIR/vault`) that another user owns is
    /// still refused, but named for what is wrong with it, not blamed on its mode.
    @Test func aRuntimeDirectoryOfAnotherUserIsSaidToBeOne() throws {
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        let runtime = sandbox.path("run/vault")
        mkdir(sandbox.path("run"), 0o700)
        mkdir(runtime, 0o700)
        #expect(chown(runtime, 65534, 65534) == 0)
        let unlocked = try sandbox.vault(["unlock", "--raw"])
        #expect(unlocked.status == 1)
        #expect(unlocked.stderr.contains("vault: error: \"\(runtime)\" is owned by another user (uid 65534)\n"), "\(unlocked.stderr)")
    }

    /// `verify` said intact on a vault whose roster `member list` called damaged: a member slot
    /// whose roster part does not open, written under the owner's keys (as any full member, who
    /// holds the wrap key, the header MAC key and the signing key, can write it), so every MAC
    /// and the header signature hold. Now every opening with full keys checks the slots against the
    /// team log, so `verify` reports the file damaged as `member list` does.
    @Test func verifyChecksTheRosterMemberListChecks() throws {
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        let alice = try AgeIdentity.generate().recipient.description
        let added = try sandbox.vault(["member", "add", "alice", alice])
        #expect(added.status == 0, "\(added.stderr)")
        let owner = Vault(
            location: VaultLocation(path: sandbox.vaultPath),
            keys: .credential(.keyFile(try KeyFile.read(path: sandbox.path("key")))),
            host: HostContext.live(environment: sandbox.environment))
        try owner.transaction { vault in
            vault.file.members[0].rosterPart[vault.file.members[0].rosterPart.count - 1] ^= 1
        }

        let listed = try sandbox.vault(["member", "list"])
        #expect(listed.status == 93 && listed.stderr.contains("roster part does not open"), "\(listed.status): \(listed.stderr)")
        let verified = try sandbox.vault(["verify"])
        #expect(verified.status == 93, "exit \(verified.status): \(verified.stdoutText)\(verified.stderr)")
        #expect(verified.stdoutText.contains("a member slot's roster part does not open"), "\(verified.stdoutText)")
        let json = try sandbox.vault(["verify", "--json"])
        #expect(json.stdoutText.contains("\"intact\":false"), "\(json.stdoutText)")
    }
}
