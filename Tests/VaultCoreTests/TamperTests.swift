import Foundation
import Testing
@testable import VaultCore
import VaultCrypto

/// Every damaged byte gives errSecDecode (or, for a byte nothing depends on,
/// the right answer) — never wrong bytes, another status, or a crash. A
/// damaged group section takes down that group (`damagedGroup`, also 93).
@Suite struct TamperTests {
    /// A small vault with items in two groups and two classes, and the tombstone of a third.
    func smallVault(in dir: TempDirectory) throws -> (Vault, [UInt8]) {
        let vault = try Vault.makeTest(at: dir.location())
        try vault.add("github", "ci-bot", "the-right-secret")
        try vault.add("npm", "publish", "other", group: AccessGroup("ci")!, accessibility: .afterFirstUnlock)
        try vault.add("old", "gone", "removed")
        _ = try vault.delete(matching: Query(service: "old", account: "gone"))
        let bytes = fileBytes(dir.location().path)
        #expect(
            try VaultFile.decode(FileBytes(bytes)).file.listings.contains { $0.classID == Tombstone.blockClassID },
            "the damaged bytes cover a tombstone block")
        return (vault, bytes)
    }

    /// Every item of `smallVault` and its secret.
    static let items = [("github", "ci-bot", "the-right-secret"), ("npm", "publish", "other")]

    /// What reading the github item gives on damaged bytes: errSecDecode, or the right secret.
    func outcome(_ vault: Vault) -> Result<String, Error> {
        Result { try vault.secret("github", "ci-bot") }
    }

    /// After each flip every item reads right or as damaged (never wrong
    /// bytes), and `verify` reports the damage: no flipped byte goes unnoticed.
    @Test func flippingAnyByteNeverYieldsWrongPlaintext() throws {
        let dir = try TempDirectory()
        let (vault, original) = try smallVault(in: dir)
        var wrong: [String] = []
        var unnoticed: [String] = []
        for offset in original.indices {
            for mask: UInt8 in [0x01, 0x80] {
                var damaged = original
                damaged[offset] ^= mask
                writeBytes(damaged, to: dir.location().path)
                for (service, account, secret) in Self.items {
                    switch Result(catching: { try vault.secret(service, account) }) {
                    case .success(secret), .failure(VaultError.snapshot(.corrupted)), .failure(VaultError.snapshot(.damagedGroup)): continue
                    case .success(let other): wrong.append("offset \(offset) mask \(mask): \(service) returned \(other)")
                    case .failure(let error): wrong.append("offset \(offset) mask \(mask): \(service): \(error)")
                    }
                }
                if try !vault.verify().isDamaged { unnoticed.append("offset \(offset) mask \(mask)") }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) damaged vaults answered wrongly: \(wrong.prefix(10))")
        #expect(unnoticed.isEmpty, "verify missed \(unnoticed.count) flipped bytes: \(unnoticed.prefix(10))")
    }

    @Test func truncatingAtAnyLengthIsDecodeError() throws {
        let dir = try TempDirectory()
        let (vault, original) = try smallVault(in: dir)
        var wrong: [String] = []
        for length in 0..<original.count {
            writeBytes(Array(original[0..<length]), to: dir.location().path)
            if case .failure(VaultError.snapshot(.corrupted)) = outcome(vault) { continue }
            wrong.append("length \(length): \(outcome(vault))")
        }
        writeBytes(original + [0], to: dir.location().path)
        if case .failure(VaultError.snapshot(.corrupted)) = outcome(vault) {} else { wrong.append("one extra byte accepted") }
        #expect(wrong.isEmpty, "\(wrong.count) truncated vaults answered wrongly: \(wrong.prefix(10))")
    }

    @Test func hostileScryptParametersAreRefusedBeforeRunning() throws {
        // A passphrase slot claiming logN = 36 must be refused, not run for hours.
        let dir = try TempDirectory()
        try Vault.create(at: dir.location(), credential: .passphrase(SecretBytes(Array("pw".utf8))), kdf: .testing)
        var bytes = fileBytes(dir.location().path)
        // magic 8, version 2, vault id 16, key epoch 8, write generation 8, device check 16, slot count 1, kind 1, salt 16 → logN
        let logNOffset = 8 + 2 + 16 + 8 + 8 + 16 + 16 + 1 + 1 + 16
        #expect(bytes[logNOffset] == Scrypt.Parameters.testing.logN)
        bytes[logNOffset] = 36
        #expect(throws: MalformedInput.self) { try VaultFile.decode(bytes) }
    }
}
