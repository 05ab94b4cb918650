import Foundation
import Testing

/// An import at its scale: 200 000 Bitwarden entries are refused under the default cap, and taken
/// with --max-entries under a memory limit (docs/IMPORT.md, "Bounds"). Only `make reliability`
/// runs it (VAULT_RELIABILITY=full): it takes minutes; `import-bounds.txt` is its sample in `make test`.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["VAULT_RELIABILITY"] == "full"))
struct ImportBoundsReliabilityTests {
    static let entries = 200_000
    /// The most resident memory the import may reach: the export and its entries, the vault, and the runtime.
    static let memoryLimitBytes = 1 << 30

    @Test func twoHundredThousandEntriesAreCappedThenTakenUnderAMemoryLimit() throws {
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        var json = "{\"encrypted\":false,\"folders\":[],\"items\":["
        json.reserveCapacity(Self.entries * 120)
        for index in 0..<Self.entries {
            if index > 0 { json += "," }
            json += "{\"type\":1,\"name\":\"site-\(index)\",\"login\":{\"username\":\"user\",\"password\":\"pw-\(index)-abcdefgh\"}}"
        }
        json += "]}"
        try sandbox.write("big.json", Array(json.utf8))

        let refused = try sandbox.vault(["import", "--from", "bitwarden-json", "big.json"])
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("holds \(Self.entries) entries, more than the 100000"), "\(refused.stderr)")

        // The child's peak resident memory, as the kernel counts it (ru_maxrss, KiB), under an address-space limit too.
        let measure = "import resource, subprocess, sys; status = subprocess.run(sys.argv[1:]).returncode; "
            + "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024); sys.exit(status)"
        let started = Date()
        let run = try sandbox.run("/bin/sh", ["-c", "ulimit -v \(4 * Self.memoryLimitBytes / 1024) && exec python3 -c \"$0\" \"$@\"", measure,
                                              Sandbox.vaultBinary, "import", "--from", "bitwarden-json", "big.json", "--max-entries", "\(Self.entries)"])
        #expect(run.status == 0, "\(run.stderr)")
        let peak = Int(run.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? Int.max
        print("import of \(Self.entries) entries: \(Int(Date().timeIntervalSince(started))) s, peak \(peak >> 20) MiB")
        #expect(peak < Self.memoryLimitBytes, "peak \(peak >> 20) MiB")
        #expect(try sandbox.vault(["get", "-s", "site-199999", "-a", "user"]).stdoutText == "pw-199999-abcdefgh")
    }
}
