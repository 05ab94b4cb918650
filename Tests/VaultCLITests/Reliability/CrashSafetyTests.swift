import Foundation
import Testing
import VaultTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Writers killed with SIGKILL at random moments: after every kill the vault
/// opens, holds every write acknowledged (exit 0) before it, and holds each
/// killed write either whole or not at all.
///
/// The test proves it tested something: it runs until it has seen writes
/// acknowledged and writers killed both before and after their change was
/// committed (a killed writer whose value is in the vault afterwards), and
/// fails if it cannot get there. Kills are spread over the time one write
/// takes on this machine, measured first, so a slow build (AddressSanitizer,
/// `make reliability`) or a loaded machine moves the kills with the writes.
@Suite struct CrashSafetyTests {
    @Test func killedWritersLoseNoAcknowledgedWrite() throws {
        var random = SeededGenerator(test: "CrashSafetyTests")
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        let writeMicroseconds = try Self.medianWriteMicroseconds(sandbox)
        let minimumRounds = ReliabilityScale.pick(short: 10, full: 250)
        let writers = 3
        // What each key may hold now: a secret, or nil for no item. Several while a killed write's fate is open.
        var possible: [String: Set<String?>] = [:]
        var acknowledged = 0, killedBeforeCommit = 0, killedAfterCommit = 0
        var round = 0
        while round < minimumRounds || acknowledged < 3 || killedBeforeCommit < 1 || killedAfterCommit < 1 {
            guard round < minimumRounds + 100 else { break }
            var started: [(key: String, value: String?, process: RunningVault)] = []
            for writer in 0..<writers {
                let key = "w\(writer)-k\(Int.random(in: 0..<3, using: &random))"
                if Bool.random(using: &random) || possible[key] == nil {
                    let value = "r\(round)-w\(writer)-" + String(repeating: "x", count: Int.random(in: 0..<200, using: &random))
                    started.append((key, value, try RunningVault(sandbox, ["add", "--update", "-s", key, "-a", "crash"], stdin: value)))
                } else {
                    started.append((key, nil, try RunningVault(sandbox, ["delete", "-s", key, "-a", "crash"])))
                }
            }
            // Three writers queue on the vault's lock: kill at any point of about three writes.
            usleep(UInt32.random(in: 0..<UInt32(3 * writeMicroseconds), using: &random))
            for writer in started { writer.process.kill() }
            var killed: [(key: String, value: String?)] = []
            for writer in started {
                let result = writer.process.finish()
                switch result.status {
                case 0:
                    acknowledged += 1
                    possible[writer.key] = [writer.value]
                case 44 where writer.value == nil:
                    acknowledged += 1
                    possible[writer.key] = [nil]
                case 137:
                    killed.append((writer.key, writer.value))
                    possible[writer.key, default: [nil]].insert(writer.value)
                default:
                    Issue.record("round \(round): \(writer.key) exited \(result.status): \(result.stderr)")
                }
            }
            var seen: [String: String?] = [:]
            for key in Set(started.map(\.key)) {
                let result = try sandbox.vault(["get", "-s", key, "-a", "crash"])
                let value: String?? = result.status == 0 ? .some(result.stdoutText) : result.status == 44 ? .some(nil) : nil
                guard let value, possible[key]?.contains(value) == true else {
                    Issue.record(
                        "round \(round): \(key) holds \(result.status == 0 ? result.stdoutText : "nothing (exit \(result.status): \(result.stderr))"); expected one of \(String(describing: possible[key]))"
                    )
                    return
                }
                possible[key] = [value]
                seen[key] = value
            }
            // An add whose value is there committed before its kill; a delete is not told apart.
            for write in killed where write.value != nil {
                if seen[write.key] == write.value { killedAfterCommit += 1 } else { killedBeforeCommit += 1 }
            }
            round += 1
        }
        print(
            "CrashSafetyTests: \(round) rounds, \(acknowledged) writes acknowledged, killed \(killedBeforeCommit) before and \(killedAfterCommit) after their commit; one write took \(writeMicroseconds) µs"
        )
        #expect(acknowledged >= 3, "only \(acknowledged) writes finished before their kill in \(round) rounds")
        #expect(killedBeforeCommit >= 1, "no writer was killed before its change landed in \(round) rounds")
        #expect(killedAfterCommit >= 1, "no writer was killed after its change landed in \(round) rounds: the kills never reached a write")
        // A later write removes what killed writers left behind.
        try sandbox.vault(["add", "-s", "final", "-a", "crash"], stdin: Array("done".utf8))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: sandbox.home + "/.local/share/vault").filter {
            $0.contains(".tmp-")
        }
        #expect(leftovers.isEmpty, "temporary files left beside the vault: \(leftovers)")
    }

    /// `vault rekey` killed at random moments: afterwards the vault opens with the key file, at the
    /// old key epoch or the next one (never between), and every item, device-bound and always ones
    /// included, reads back whole. A kill between the vault write and the new device key's publication
    /// is taken up by the next read.
    @Test func killedRekeysLeaveTheOldOrTheNewVault() throws {
        var random = SeededGenerator(test: "CrashSafetyTests.rekey")
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        var items: [(service: String, secret: String)] = []
        for (number, accessibility) in ["when-unlocked", "always", "when-unlocked-this-device-only", "after-first-unlock"].enumerated() {
            for copy in 0..<5 {
                let service = "s\(number)-\(copy)", secret = "secret-\(number)-\(copy)-" + String(repeating: "y", count: copy * 40)
                let added = try sandbox.vault(["add", "-s", service, "-a", "rekey", "--class", accessibility], stdin: Array(secret.utf8))
                #expect(added.status == 0, "\(added.stderr)")
                items.append((service, secret))
            }
        }
        func epoch() throws -> Int? {
            let result = try sandbox.vault(["verify", "--json"])
            guard result.status == 0, let range = result.stdoutText.range(of: "\"key_epoch\":") else { return nil }
            return Int(result.stdoutText[range.upperBound...].prefix { $0.isNumber })
        }
        var times: [Int] = []
        for _ in 0..<3 {
            let start = DispatchTime.now().uptimeNanoseconds
            #expect(try sandbox.vault(["rekey", "--yes"]).status == 0)
            times.append(Int((DispatchTime.now().uptimeNanoseconds - start) / 1000))
        }
        let rekeyMicroseconds = max(times.sorted()[1], 1000)
        var current = try #require(try epoch())
        let minimumRounds = ReliabilityScale.pick(short: 12, full: 120)
        var finished = 0, killedBefore = 0, killedAfter = 0, round = 0
        while round < minimumRounds || finished < 1 || killedBefore < 1 {
            guard round < minimumRounds + 60 else { break }
            let process = try RunningVault(sandbox, ["rekey", "--yes"])
            usleep(UInt32.random(in: 0..<UInt32(2 * rekeyMicroseconds), using: &random))
            process.kill()
            let status = process.finish().status
            guard let now = try epoch() else {
                Issue.record("round \(round): the vault does not verify after a rekey exited \(status)")
                return
            }
            switch (status, now) {
            case (0, current + 1): finished += 1
            case (137, current): killedBefore += 1
            case (137, current + 1): killedAfter += 1
            default:
                Issue.record("round \(round): rekey exited \(status) and left key epoch \(now), from \(current)")
                return
            }
            current = now
            for item in items {
                let result = try sandbox.vault(["get", "-s", item.service, "-a", "rekey"])
                #expect(
                    result.status == 0 && result.stdoutText == item.secret,
                    "round \(round): \(item.service): exit \(result.status) \(result.stderr)")
            }
            round += 1
        }
        print(
            "CrashSafetyTests: \(round) rekeys, \(finished) finished, killed \(killedBefore) before and \(killedAfter) after the write; one rekey took \(rekeyMicroseconds) µs"
        )
        #expect(
            finished >= 1 && killedBefore >= 1,
            "\(finished) rekeys finished and \(killedBefore) were killed before their write in \(round) rounds")
    }

    /// The median time of three uncontended writes here: what the kills are spread over (never asserted on).
    static func medianWriteMicroseconds(_ sandbox: Sandbox) throws -> Int {
        var times: [Int] = []
        for attempt in 0..<3 {
            let start = DispatchTime.now().uptimeNanoseconds
            try sandbox.vault(["add", "-s", "calibrate", "-a", "\(attempt)"], stdin: Array("x".utf8))
            times.append(Int((DispatchTime.now().uptimeNanoseconds - start) / 1000))
        }
        return max(times.sorted()[1], 1000)
    }
}
