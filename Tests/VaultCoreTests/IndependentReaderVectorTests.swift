import Foundation
import Testing
@testable import VaultCore
import VaultCrypto

/// The committed v3 vectors mean what docs/FORMAT.md says: a reader written from that page alone
/// (Tests/FormatReader/vault_v3.py) opens in each exactly the items and trashed items vault opens,
/// with the owner's passphrase and with each member's identity, and a flipped byte is refused.
@Suite struct IndependentReaderVectorTests {
    static let pin = "29a11c789056a5ee569f333e737bf1945aabe0c32e5b078feb76f901b9670324"

    @Test(arguments: ["v3", "v3-trash"])
    func theReaderOpensTheCommittedVectorAsVaultDoes(_ name: String) throws {
        let dir = try TempDirectory()
        let fixtures = MigrationTests.fixtures
        let location = dir.location(name + ".vault")
        writeBytes(fileBytes(fixtures + "/\(name)/\(name).vault"), to: location.path)
        writeBytes(fileBytes(fixtures + "/\(name)/device.key"), to: location.legacyDeviceKeyPath)
        writeBytes(Array("correct horse battery staple".utf8), to: dir.path + "/passphrase")
        let device = ["--device-key", fixtures + "/\(name)/device.key"]

        func member(_ member: String) throws -> Vault {
            let identity = try AgeIdentity.parseAll(SecretBytes(fileBytes(fixtures + "/v3/\(member).identity")), source: member)
            return Vault(
                location: location, keys: .identity(identity), host: Vault.selfContainedHost(for: location),
                configuration: Vault.Configuration(trustedFingerprint: Self.pin))
        }
        let principals: [(String, Vault, [String])] = [
            ("owner", Vault(location: location, credential: MigrationTests.passphrase), ["--passphrase-file", dir.path + "/passphrase"]),
            ("alice", try member("alice"), ["--identity", fixtures + "/v3/alice.identity", "--trust", Self.pin]),
            ("ci-reader", try member("ci-reader"), ["--identity", fixtures + "/v3/ci-reader.identity", "--trust", Self.pin])
        ]
        for (who, vault, keys) in principals {
            let items = try vault.attributes(matching: Query()).map { attributes in
                TestVectorTests.line(
                    try vault.item(
                        matching: Query(
                            service: attributes.service, account: attributes.account,
                            group: attributes.group)))
            }.sorted()
            let trash = try vault.trashedSecrets().map(TestVectorTests.line).sorted()
            let reader = try Self.runReader([location.path, "--show-secrets"] + keys + device)
            #expect(reader.status == 0, "\(who): \(reader.stderr)")
            #expect(reader.lines("items") == items, "\(who) in \(name)")
            #expect(reader.lines("trash") == trash, "\(who) in \(name)")
            #expect(!items.isEmpty || !trash.isEmpty, "\(who) opens nothing of \(name)")

            // --values: every value these keys open, the current secrets exactly vault's, and the earlier ones.
            let values = try Self.runReader([location.path, "--show-secrets", "--values"] + keys + device)
            let opened = (try? JSONSerialization.jsonObject(with: Data(values.stdout.utf8))) as? [[String: String]] ?? []
            let current = try
                (vault.attributes(matching: Query()).map {
                    try vault.item(matching: Query(service: $0.service, account: $0.account, group: $0.group))
                } + vault.trashedSecrets()).map {
                    "\($0.attributes.group.name) \($0.attributes.service) " + Self.hex($0.secret.copyBytes())
                }
            #expect(
                opened.filter { ["item", "trash"].contains($0["where"]) }.map { "\($0["group"]!) \($0["service"]!) \($0["hex"]!)" }.sorted()
                    == current.sorted(), "\(who) in \(name)")
            let earlier = opened.filter { $0["where"]?.contains("revision") == true }.map { $0["hex"] }
            let rotated = name == "v3-trash" && who != "ci-reader"
            #expect(earlier == (rotated ? [Self.hex(Array("ghp_testvector_0001".utf8))] : []), "\(who) in \(name)")
        }

        // One flipped byte in the last record is refused, not misread.
        var damaged = fileBytes(location.path)
        damaged[damaged.count - 20] ^= 0x01
        writeBytes(damaged, to: dir.path + "/damaged.vault")
        let refused = try Self.runReader([dir.path + "/damaged.vault", "--passphrase-file", dir.path + "/passphrase"] + device)
        #expect(refused.status == 1 && refused.stderr.contains("damaged"), "\(refused.stderr)")
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    struct ReaderRun {
        var status: Int32
        var object: [String: Any]
        var stdout: String
        var stderr: String

        /// The reader's entries under `key` as TestVectorTests.line makes them of vault's items.
        func lines(_ key: String) -> [String] {
            (object[key] as? [[String: Any]] ?? []).map { entry in
                (["group", "class", "service", "account", "label", "created", "modified"].map { field in
                    entry[field].map { "\($0)" } ?? (field == "label" ? "-" : "missing")
                } + [(entry["secret"] as? [String: Any])?["hex"] as? String ?? "missing"]).joined(separator: " | ")
            }.sorted()
        }
    }

    static func runReader(_ arguments: [String]) throws -> ReaderRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [TestVectorTests.packageRoot + "/Tests/FormatReader/vault_v3.py"] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ReaderRun(
            status: process.terminationStatus,
            object: (try? JSONSerialization.jsonObject(with: stdout)) as? [String: Any] ?? [:],
            stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }
}
