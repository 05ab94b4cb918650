import FoundationEssentials
import Testing
@testable import VaultCore
import VaultCrypto

#if canImport(Glibc)
import Glibc
#endif

/// A device key that an earlier version left beside a vault in a git work
/// tree is public: reads use it as they did, and the owner's first change
/// moves the vault onto a new key with which the old one opens nothing.
@Suite struct ExposedDeviceKeyTests {
    /// A vault in a git work tree whose device key lies beside it, as earlier versions left it; returns it and that key.
    func vaultWithExposedKey(_ dir: TempDirectory) throws -> (Vault, DeviceKey) {
        mkdir(dir.path + "/.git", 0o700)
        let vault = try Vault.makeTest(at: dir.location())
        try vault.add("disk", "me", "bound-secret", accessibility: .whenUnlockedThisDeviceOnly)
        try vault.add("cron", "me", "always-secret", accessibility: .always)
        let keyPath = deviceKeyPath(of: dir.location())
        let key = fileBytes(keyPath)
        unlink(keyPath)
        writeBytes(key, to: dir.location().legacyDeviceKeyPath)
        chmod(dir.location().legacyDeviceKeyPath, 0o644)  // as a checkout makes it
        return (Vault(location: dir.location(), credential: testKeyFile), DeviceKey(SecretBytes(key)))
    }

    @Test func readsUseTheExposedKeyAndChangeNothing() throws {
        let dir = try TempDirectory()
        let (vault, _) = try vaultWithExposedKey(dir)
        let before = fileBytes(dir.location().path)
        #expect(try vault.secret("disk", "me") == "bound-secret")
        #expect(fileBytes(dir.location().path) == before)
        #expect(FileSystem.exists(dir.location().legacyDeviceKeyPath))
    }

    @Test func theFirstChangeMovesTheVaultOffTheExposedKey() throws {
        let dir = try TempDirectory()
        let (vault, oldKey) = try vaultWithExposedKey(dir)
        let oldBytes = fileBytes(dir.location().path)
        let oldGrants =
            DeviceGrants.read(
                vaultID: VaultFile.peekVaultID(oldBytes), deviceKey: oldKey,
                host: Vault.selfContainedHost(for: dir.location())) ?? []
        #expect(!oldGrants.isEmpty)
        var notices: [VaultNotice] = []
        try vault.reconfigured { $0.onNotice = { notices.append($0) } }.add("later", "me", "added-after-the-move", accessibility: .always)
        #expect(notices.last == .deviceKeyReplaced(oldPath: dir.location().legacyDeviceKeyPath, removed: true, resealed: 2))
        #expect(!FileSystem.exists(dir.location().legacyDeviceKeyPath))
        #expect(try vault.secret("disk", "me") == "bound-secret")
        #expect(try vault.secret("cron", "me") == "always-secret")

        // Whoever holds the old key and the old file gets its always base keys from the old device
        // grants; with them, no always or device-bound record of the new file opens.
        let stolen = try Snapshot.openPartial(oldBytes, deviceKey: oldKey, grants: oldGrants, path: "old")
        var attacker = WorkingCopy(stolen)
        attacker.file = try VaultFile.decode(fileBytes(dir.location().path)).file
        var tried = 0
        for position in attacker.file.index.indices {
            guard let accessibility = Accessibility(fileID: attacker.file.index[position].classID),
                accessibility.opensWithoutUnlock || accessibility.isDeviceBound
            else { continue }
            tried += 1
            #expect(throws: VaultError.self) { try attacker.openRecord(at: position) }
        }
        #expect(tried == 3)
    }

    @Test func aLinkInPlaceOfTheKeyIsNeverFollowed() throws {
        let dir = try TempDirectory()
        let (vault, _) = try vaultWithExposedKey(dir)
        let victim = dir.path + "/precious"
        writeBytes(Array(repeating: 0x41, count: 32), to: victim)
        unlink(dir.location().legacyDeviceKeyPath)
        symlink(victim, dir.location().legacyDeviceKeyPath)
        #expect(throws: VaultError.symbolicLink(path: dir.location().legacyDeviceKeyPath)) { try vault.secret("disk", "me") }
        #expect(fileBytes(victim) == Array(repeating: 0x41, count: 32))
    }

    @Test func aCrashBeforeTheNewKeyIsPublishedIsResumed() throws {
        let dir = try TempDirectory()
        let (vault, _) = try vaultWithExposedKey(dir)
        try vault.add("later", "me", "x")
        // As if the process died after the vault write and before the rename of the pending key.
        let host = Vault.selfContainedHost(for: dir.location())
        let id = VaultFile.peekVaultID(fileBytes(dir.location().path))
        #expect(rename(DeviceKeyStore.path(vaultID: id, host: host), DeviceKeyStore.pendingPath(vaultID: id, host: host)) == 0)
        let again = Vault(location: dir.location(), credential: testKeyFile)
        #expect(try again.secret("disk", "me") == "bound-secret")
        #expect(FileSystem.exists(DeviceKeyStore.path(vaultID: id, host: host)))
    }
}
