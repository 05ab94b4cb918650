import Foundation
import Testing
@testable import VaultCore
import VaultCrypto

/// The committed test vectors are fixed: each is pinned by its SHA-256, so a
/// regenerated vector fails here (a layout change needs a new format version
/// and a new vector beside the old one, never a new v1). And the v1 vector
/// means what docs/FORMAT.md says: a reader written from that page alone
/// (Tests/FormatReader/vault_v1.py) finds exactly the items vault finds.
@Suite struct TestVectorTests {
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// Every committed vector, by path from the package root, and its SHA-256.
    static let pinned: [String: String] = [
        "Tests/VaultCoreTests/Fixtures/v1/v1.vault": "a10b97807d7c7f02f7668bfdbcd3b7cff69d7fee4c682259ff2bf4b98315a2e9",
        "Tests/VaultCoreTests/Fixtures/v1/device.key": "a801813da9ae2c3f2bc7a244ceabb7b5e24a0cd5965c10ae6cbed397fa470e77",
        "Tests/VaultCoreTests/Fixtures/v2/v2.vault": "4b2869f53ef8bf1cc1bc8d4e84f83c6291e196dd70e2abbb844f562d6fc687a0",
        "Tests/VaultCoreTests/Fixtures/v2/device.key": "1bedfe6af9ff062155a7f6cb227ede75da3ec096711010209ab707863717c719",
        "Tests/VaultCoreTests/Fixtures/v3/v3.vault": "ffe4be0853998b33bdee3da16b4823ec704ff456c5f96c8661fd4c0653caa528",
        "Tests/VaultCoreTests/Fixtures/v3/device.key": "1bedfe6af9ff062155a7f6cb227ede75da3ec096711010209ab707863717c719",
        "Tests/VaultCoreTests/Fixtures/v3/alice.identity": "8809e4996a7a98bf58ccacde39b9ca5b1bcd6ec7442dae84352f7ab48e2bbe57",
        "Tests/VaultCoreTests/Fixtures/v3/ci-reader.identity": "ab793eb554a67c90cee526486c26552e16f2e25c660f0457ce2531395c59903d",
        "Tests/VaultCoreTests/Fixtures/v3-trash/v3-trash.vault": "d8f72962c29bda6398a800ef2147cb436f691c7df7c09171f47896e125b07565",
        "Tests/VaultCoreTests/Fixtures/v3-trash/device.key": "1bedfe6af9ff062155a7f6cb227ede75da3ec096711010209ab707863717c719",
        "Tests/VaultCoreTests/Fixtures/v3-purge/v3-purge.vault": "34ca0d2767ec367f034445d610bba69cd64e24830dcac44fe2a259daae2972ef",
        "Tests/VaultCoreTests/Fixtures/v3-ledger/v3-ledger.vault": "3701c31509f368b4947af14164c43db7674218a5446ce8465cd60e27d3a9bf79",
        "Tests/VaultCoreTests/Fixtures/v3-ledger/ci.cred": "ad2165abd2b77a31459321d8c702b8aebda1606383ec8c6d69cd3f958f6ceac7",
        "Tests/VaultCryptoTests/Vectors/aes-256-gcm.txt": "079b2650004dec208ac37d96877ded2a936288e9068f99a46034d33575aabc28",
        "Tests/VaultCryptoTests/Vectors/hkdf-sha256-rfc5869.txt": "0eb3c2a72f7edf30c59a2cb3da116bebbcbe37d04a381417adedb96d7ca044e5",
        "Tests/VaultCryptoTests/Vectors/hmac-sha256-rfc4231.txt": "9bf404744584c2c1a2f768985ccc68687c0bce5b1ffa042795417a0fe5ff2d86",
        "Tests/VaultCryptoTests/Vectors/secret-service-dh.txt": "3e55cab406b905c695c4f4878d12a2092e661943a9d2250436a2d21395b3c16d",
        "Tests/VaultCryptoTests/Vectors/scrypt-rfc7914.txt": "0ffc451f032b1036cdc8e8455e7a94e26fcd1acb788f116536f60aff4a4024ab",
        "Tests/VaultCryptoTests/Vectors/sha256-fips180.txt": "3a373ae0b34ab68f7845c4d48843af28eb2af9b16946c1c16c8068a491afa44b"
    ]

    @Test func everyCommittedVectorIsThePinnedOne() throws {
        for (path, expected) in Self.pinned {
            let bytes = fileBytes(Self.packageRoot + "/" + path)
            let actual = SHA256.hash(bytes).map { String(format: "%02x", $0) }.joined()
            #expect(actual == expected, "\(path) changed (SHA-256 \(actual)); committed vectors are never regenerated")
        }
        // A vector added without a pin would not be fixed either.
        for directory in [
            "Tests/VaultCoreTests/Fixtures/v1", "Tests/VaultCoreTests/Fixtures/v2", "Tests/VaultCoreTests/Fixtures/v3",
            "Tests/VaultCoreTests/Fixtures/v3-trash", "Tests/VaultCoreTests/Fixtures/v3-purge", "Tests/VaultCoreTests/Fixtures/v3-ledger",
            "Tests/VaultCryptoTests/Vectors"
        ] {
            for name in try FileManager.default.contentsOfDirectory(atPath: Self.packageRoot + "/" + directory) where name != "README.md" {
                #expect(Self.pinned[directory + "/" + name] != nil, "\(directory)/\(name) is not pinned in TestVectorTests")
            }
        }
    }

    @Test func independentReaderFindsWhatVaultFinds() throws {
        let dir = try TempDirectory()
        let fixtures = Self.packageRoot + "/Tests/VaultCoreTests/Fixtures/v1"
        writeBytes(Array("correct horse battery staple".utf8), to: dir.path + "/passphrase")
        let location = dir.location("v1.vault")
        writeBytes(fileBytes(fixtures + "/v1.vault"), to: location.path)
        writeBytes(fileBytes(fixtures + "/device.key"), to: location.legacyDeviceKeyPath)
        let vault = Vault(location: location, credential: FormatTests.vectorPassphrase)
        let vaultSees = try vault.attributes(matching: Query()).map { attributes -> String in
            let item = try vault.item(matching: Query(service: attributes.service, account: attributes.account, group: attributes.group))
            return Self.line(item)
        }.sorted()
        #expect(vaultSees.count == 5)

        for withDeviceKey in [true, false] {
            let reader = try Self.runReader(
                [fixtures + "/v1.vault", dir.path + "/passphrase"]
                    + (withDeviceKey ? [fixtures + "/device.key"] : []))
            #expect(reader.status == 0, "\(reader.stderr)")
            let readerSees = try reader.stdout.split(separator: "\n").map { line -> String in
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                return Self.line(object)
            }.sorted()
            // Without the device key the reader leaves out the one device-bound item, as vault does.
            #expect(readerSees == (withDeviceKey ? vaultSees : vaultSees.filter { !$0.contains("this-device-only") }))
        }

        // A wrong passphrase or one flipped byte is refused, not misread.
        writeBytes(Array("wrong".utf8), to: dir.path + "/wrong")
        #expect(try Self.runReader([fixtures + "/v1.vault", dir.path + "/wrong"]).status == 1)
        var damaged = fileBytes(fixtures + "/v1.vault")
        damaged[damaged.count - 20] ^= 0x01
        writeBytes(damaged, to: dir.path + "/damaged.vault")
        let refused = try Self.runReader([dir.path + "/damaged.vault", dir.path + "/passphrase"])
        #expect(refused.status == 1 && refused.stderr.contains("a record does not open"), "\(refused.stderr)")
    }

    /// One item as a comparable line: group, class, service, account, label, dates in ms, secret in hex.
    static func line(_ item: Item) -> String {
        let a = item.attributes
        return [
            a.group.name, a.accessibility.rawValue, a.service, a.account, a.details.label ?? "-",
            String(Int64((a.created.timeIntervalSince1970 * 1000).rounded())),
            String(Int64((a.modified.timeIntervalSince1970 * 1000).rounded())),
            item.secret.copyBytes().map { String(format: "%02x", $0) }.joined()
        ].joined(separator: " | ")
    }

    static func line(_ object: [String: Any]) -> String {
        ["group", "class", "service", "account", "label", "created", "modified", "secret_hex"]
            .map { object[$0].map { "\($0)" } ?? ($0 == "label" ? "-" : "missing") }.joined(separator: " | ")
    }

    static func runReader(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [packageRoot + "/Tests/FormatReader/vault_v1.py"] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }
}
