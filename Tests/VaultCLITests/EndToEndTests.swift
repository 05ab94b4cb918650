import Foundation
import Testing
import VaultTestSupport

/// End-to-end properties of the built binary that a transcript cannot express:
/// large binary secrets, damage at every byte, parallel writers.
@Suite struct EndToEndTests {
    @Test func oneMebibyteOfBinaryRoundTripsExactly() throws {
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        var generator = SeededGenerator(test: "oneMebibyteOfBinaryRoundTripsExactly")
        let secret = (0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let add = try sandbox.vault(["add", "-s", "blob", "-a", "max"], stdin: secret)
        #expect(add.status == 0, "\(add.stderr)")
        let get = try sandbox.vault(["get", "-s", "blob", "-a", "max"])
        #expect(get.status == 0)
        #expect(get.stdout == secret)
        try sandbox.write("too-big", [UInt8](repeating: 0x41, count: (1 << 20) + 1))
        let before = sandbox.read(sandbox.vaultPath)
        let over = try sandbox.vault(["add", "-s", "blob", "-a", "over", "--secret-file", sandbox.path("too-big")])
        #expect(over.status == 2)
        #expect(over.stderr.contains("invalid secret: it is 1048577 bytes; the limit is 1048576 (1 MiB)"))
        #expect(sandbox.read(sandbox.vaultPath) == before)
    }

    @Test func damagedVaultNeverYieldsWrongBytes() throws {
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        #expect(try sandbox.vault(["add", "-s", "github", "-a", "ci-bot"], stdin: Array("right-secret".utf8)).status == 0)
        #expect(try sandbox.vault(["add", "-s", "other", "-a", "x", "--group", "ci"], stdin: Array("other".utf8)).status == 0)
        let original = sandbox.read(sandbox.vaultPath)!
        var wrong: [String] = []
        // Every item is read after each change: right bytes or 93, never others; and the damage is
        // noticed somewhere: by one of the reads, or else by `vault verify` (exit 93).
        func check(_ damaged: [UInt8], _ what: String) throws {
            try sandbox.write(sandbox.vaultPath, damaged)
            var noticed = false
            for (service, account, secret) in [("github", "ci-bot", "right-secret"), ("other", "x", "other")] {
                let result = try sandbox.vault(["get", "-s", service, "-a", account])
                switch result.status {
                case 0 where result.stdout == Array(secret.utf8): break
                case 93 where result.stderr.hasPrefix("vault: error: the vault") && !result.stderr.contains(secret): noticed = true
                default: wrong.append("\(what): \(service): exit \(result.status), \(result.stderr)")
                }
            }
            if !noticed, try sandbox.vault(["verify"]).status != 93 { wrong.append("\(what): read right, and verify saw nothing") }
        }
        for offset in original.indices {
            var damaged = original
            damaged[offset] ^= 0x20
            try check(damaged, "byte \(offset) flipped")
        }
        for length in stride(from: 0, to: original.count, by: 7) {
            try check(Array(original[0..<length]), "truncated to \(length)")
        }
        #expect(wrong.isEmpty, "\(wrong.count) damaged vaults answered wrongly, e.g. \(wrong.prefix(5))")
    }

    @Test func parallelWritersLoseNoUpdate() throws {
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        let script = """
            pids=
            for w in 1 2 3 4; do
              ( for i in $(seq 1 25); do printf 'secret-%s-%s' $w $i | vault add -s "svc-$w" -a "acct-$i" || exit 1; done ) &
              pids="$pids $!"
            done
            fail=0
            for pid in $pids; do wait $pid || fail=1; done
            exit $fail
            """
        let writers = try sandbox.run("/bin/sh", ["-c", script])
        #expect(writers.status == 0, "\(writers.stderr)")
        let list = try sandbox.vault(["list", "--json"])
        #expect(list.status == 0, "\(list.stderr)")
        let items = try JSONSerialization.jsonObject(with: Data(list.stdout)) as? [[String: Any]] ?? []
        #expect(items.count == 100, "\(writers.stderr.suffix(500)) \(list.stderr)")
        let get = try sandbox.vault(["get", "-s", "svc-3", "-a", "acct-17"])
        #expect(get.stdoutText == "secret-3-17")
    }

    @Test func vaultIsUnchangedByEveryFailedCommand() throws {
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        #expect(try sandbox.vault(["add", "-s", "svc", "-a", "acct", "-w", "v"]).status == 0)
        let before = sandbox.read(sandbox.vaultPath)
        let failing: [[String]] = [
            ["add", "-s", "svc", "-a", "acct", "-w", "dup"],
            ["add", "-s", "svc", "-a", "x", "--class", "nope", "-w", "v"],
            ["update", "-s", "svc", "-a", "missing", "-w", "v"],
            ["delete", "-s", "missing", "-a", "x"],
            ["delete"],
            ["passwd", "--remove-key-file", sandbox.path("key")],
            ["add", "-s", "", "-a", "x", "-w", "v"],
            ["add", "--bogus"]
        ]
        for arguments in failing {
            let result = try sandbox.vault(arguments)
            #expect(result.status != 0, "\(arguments) succeeded")
            #expect(result.stderr.contains("vault: error: "), "\(arguments): \(result.stderr)")
            #expect(sandbox.read(sandbox.vaultPath) == before, "\(arguments) changed the vault")
        }
    }
}
