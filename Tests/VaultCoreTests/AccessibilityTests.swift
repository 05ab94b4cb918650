import Foundation
import Testing
@testable import VaultCore
import VaultCrypto

/// Accessibility classes decide which keys decrypt an item: checked with the
/// keys each situation really has, not with a flag.
@Suite struct AccessibilityTests {
    /// A host whose clock and boot id the test moves.
    final class TestHost: @unchecked Sendable {
        var now = Date(timeIntervalSince1970: 1_800_000_000)
        var bootID = "boot-1"
        let runtime: String

        init(_ dir: TempDirectory) { runtime = dir.path + "/run" }

        var context: HostContext {
            HostContext(now: { self.now }, bootID: { self.bootID }, runtimeDirectory: runtime)
        }
    }

    let passphrase = UnlockSecret.passphrase(SecretBytes(Array("pass".utf8)))

    /// A passphrase vault with one item of each class.
    func vaultWithEveryClass(_ dir: TempDirectory, _ host: TestHost) throws -> Vault {
        try Vault.create(at: dir.location(), credential: passphrase, kdf: .testing, host: host.context)
        let vault = Vault(location: dir.location(), keys: .credential(passphrase), host: host.context)
        for accessibility in Accessibility.allCases {
            try vault.add(
                NewItem(
                    service: accessibility.rawValue, account: "a", accessibility: accessibility,
                    secret: SecretBytes(Array("secret-\(accessibility.rawValue)".utf8))))
        }
        AfterFirstUnlockCache.remove(vaultID: VaultFile.peekVaultID(fileBytes(dir.location().path)), host: host.context)
        return vault
    }

    func read(_ vault: Vault, _ accessibility: Accessibility) -> Result<String, VaultError> {
        Result { try vault.secret(accessibility.rawValue, "a") }.mapError { $0 as! VaultError }
    }

    @Test func withoutUnlockOnlyAlwaysClassesOpen() throws {
        let dir = try TempDirectory()
        let host = TestHost(dir)
        _ = try vaultWithEveryClass(dir, host)
        let locked = Vault(location: dir.location(), keys: .none, host: host.context)
        for accessibility in Accessibility.allCases {
            if accessibility.opensWithoutUnlock {
                #expect(try read(locked, accessibility).get() == "secret-\(accessibility.rawValue)")
            } else {
                #expect(read(locked, accessibility) == .failure(.locked(accessibility, tried: [.deviceKeyNotEnough])))
            }
        }
    }

    @Test func deviceKeyAndFileCannotDecryptWhenUnlockedRecords() throws {
        let dir = try TempDirectory()
        let host = TestHost(dir)
        _ = try vaultWithEveryClass(dir, host)
        let bytes = fileBytes(dir.location().path)
        let key = try deviceKey(of: dir.location(), host: host.context)
        let open = try Snapshot.openPartial(
            bytes, deviceKey: key,
            grants: DeviceGrants.read(
                vaultID: VaultFile.peekVaultID(bytes), deviceKey: key,
                host: host.context) ?? [], path: "t")
        let position = open.file.index.firstIndex { $0.classID == Accessibility.whenUnlocked.fileID }!
        let entry = open.file.index[position]
        let aad = AAD.record(vaultID: open.file.vaultID, recordID: entry.recordID, groupID: entry.groupID, classID: entry.classID)
        // Everything the partial ring holds, tried as the record's base key: none opens it.
        let held = open.keys.groups.values.flatMap {
            [$0.lookupKey.secret] + ($0.indexMACKey.map { [$0.secret] } ?? []) + $0.baseKeys.values.map(\.secret)
        }
        #expect(!held.isEmpty)
        for key in held {
            let recordKey = KeyRing.derive(key, .record, entry.recordID, vaultID: open.file.vaultID)
            #expect(throws: CryptoError.authenticationFailed) { try AESGCM.open(open.file.records[position], key: recordKey, aad: aad) }
        }
        // The always record does open.
        let always = open.file.index.firstIndex { $0.classID == Accessibility.always.fileID }!
        #expect(try open.openRecord(at: always).secret.text == "secret-always")
    }

    @Test func sessionsLiveSideBySideAndEnd() throws {
        let dir = try TempDirectory()
        let host = TestHost(dir)
        let vault = try vaultWithEveryClass(dir, host)
        let first = try vault.startSession(timeout: 600)
        let second = try vault.startSession(timeout: 600)
        let one = Vault(location: dir.location(), keys: .session(first), host: host.context)
        let two = Vault(location: dir.location(), keys: .session(second), host: host.context)
        #expect(try one.secret("when-unlocked", "a") == "secret-when-unlocked")
        #expect(try two.secret("when-unlocked", "a") == "secret-when-unlocked")
        #expect(try one.lock(token: first, all: false).sessionsEnded == 1)
        #expect(
            read(one, .whenUnlocked)
                == .failure(.locked(.whenUnlocked, tried: [UnlockAttempt(.session, .ended(.unknown)), .deviceKeyNotEnough])))
        #expect(try two.secret("when-unlocked", "a") == "secret-when-unlocked")
    }

    /// A vault re-keyed on another machine (a teammate's clone, brought here by git) fails its header
    /// MAC under a session of the old keys, at a higher key epoch: the session ended, not damage.
    @Test func aSessionFromBeforeAReKeyElsewhereEndsRatherThanReadingAsDamage() throws {
        let dir = try TempDirectory(), elsewhere = try TempDirectory()
        let host = TestHost(dir), otherMachine = TestHost(elsewhere)
        let vault = try vaultWithEveryClass(dir, host)
        let token = try vault.startSession(timeout: 600)
        writeBytes(fileBytes(dir.location().path), to: elsewhere.location().path)
        _ = try Vault(location: elsewhere.location(), keys: .credential(passphrase), host: otherMachine.context).rekey(kdf: .testing) { _ in
        }
        writeBytes(fileBytes(elsewhere.location().path), to: dir.location().path)
        let session = Vault(location: dir.location(), keys: .session(token), host: host.context)
        #expect(read(session, .whenUnlocked) == .failure(.sessionEnded(.rekeyed)))
    }

    @Test func sessionExpiresAfterIdleTimeoutAndUseRefreshesIt() throws {
        let dir = try TempDirectory()
        let host = TestHost(dir)
        let vault = try vaultWithEveryClass(dir, host)
        let token = try vault.startSession(timeout: 60)
        let session = Vault(location: dir.location(), keys: .session(token), host: host.context)
        host.now += 50
        #expect(try session.secret("when-unlocked", "a") == "secret-when-unlocked")
        host.now += 50  // 100 s after start, 50 s after the last use
        #expect(try session.secret("when-unlocked", "a") == "secret-when-unlocked")
        host.now += 61
        #expect(
            read(session, .whenUnlocked)
                == .failure(.locked(.whenUnlocked, tried: [UnlockAttempt(.session, .ended(.expired)), .deviceKeyNotEnough])))
    }

    @Test func aForgedTokenOrTheCacheFileAloneOpensNothing() throws {
        let dir = try TempDirectory()
        let host = TestHost(dir)
        let vault = try vaultWithEveryClass(dir, host)
        let token = try vault.startSession(timeout: 600)
        // Same session id, another key: the cache file is there, the token is wrong.
        let forged = String(token.prefix(4 + 32)) + String(repeating: "0", count: 64)
        #expect(
            read(Vault(location: dir.location(), keys: .session(forged), host: host.context), .whenUnlocked)
                == .failure(.locked(.whenUnlocked, tried: [UnlockAttempt(.session, .ended(.unknown)), .deviceKeyNotEnough])))
        #expect(
            read(Vault(location: dir.location(), keys: .session("not-a-token"), host: host.context), .whenUnlocked)
                == .failure(.locked(.whenUnlocked, tried: [UnlockAttempt(.session, .ended(.malformed)), .deviceKeyNotEnough])))
    }

    @Test func afterFirstUnlockSurvivesLockButNotAReboot() throws {
        let dir = try TempDirectory()
        let host = TestHost(dir)
        let vault = try vaultWithEveryClass(dir, host)
        let token = try vault.startSession()
        _ = try vault.lock(token: token, all: false)
        let locked = Vault(location: dir.location(), keys: .none, host: host.context)
        #expect(try read(locked, .afterFirstUnlock).get() == "secret-after-first-unlock")
        #expect(try read(locked, .afterFirstUnlockThisDeviceOnly).get() == "secret-after-first-unlock-this-device-only")
        #expect(read(locked, .whenUnlocked) == .failure(.locked(.whenUnlocked, tried: [.deviceKeyNotEnough])))
        host.bootID = "boot-2"
        #expect(read(locked, .afterFirstUnlock) == .failure(.locked(.afterFirstUnlock, tried: [.deviceKeyNotEnough])))
        host.bootID = "boot-1"
        #expect(try vault.lock(token: nil, all: true).afterFirstUnlockEnded)
        #expect(read(locked, .afterFirstUnlock) == .failure(.locked(.afterFirstUnlock, tried: [.deviceKeyNotEnough])))
    }

    @Test func copiedVaultOpensPortableItemsOnly() throws {
        let dir = try TempDirectory()
        let host = TestHost(dir)
        _ = try vaultWithEveryClass(dir, host)
        let elsewhere = try TempDirectory()
        writeBytes(fileBytes(dir.location().path), to: elsewhere.location().path)
        let copy = Vault(location: elsewhere.location(), keys: .credential(passphrase), host: TestHost(elsewhere).context)
        var opened = 0, bound = 0
        for accessibility in Accessibility.allCases {
            switch read(copy, accessibility) {
            case .success:
                opened += 1
                #expect(!accessibility.isDeviceBound)
            case .failure(.boundToAnotherDevice(group: .default, accessibility: accessibility)):
                bound += 1
                #expect(accessibility.isDeviceBound)
            case .failure(let error): Issue.record("\(accessibility): \(error)")
            }
        }
        #expect(opened == 3 && bound == 4)
        #expect(try copy.listing(matching: Query()).items.count + 0 == 3)
    }

    @Test func removingThePassphraseDestroysPasscodeItemsOnly() throws {
        let dir = try TempDirectory()
        let host = TestHost(dir)
        let vault = try vaultWithEveryClass(dir, host)
        try vault.addKeyFile(testKeyFile.secret)
        let (destroyed, rotated) = try vault.removePassphrase()
        #expect(destroyed.map(\.accessibility) == [.whenPasscodeSetThisDeviceOnly])
        // Opened with the passphrase, the key file left is not at hand: the master key stays.
        #expect(!rotated)
        let byKey = Vault(location: dir.location(), keys: .credential(testKeyFile), host: host.context)
        let left = try byKey.attributes(matching: Query()).map(\.accessibility)
        #expect(Set(left) == Set(Accessibility.allCases).subtracting([.whenPasscodeSetThisDeviceOnly]))
        #expect(throws: VaultError.passcodeNotSet) {
            try byKey.add(NewItem(service: "p", account: "a", accessibility: .whenPasscodeSetThisDeviceOnly, secret: SecretBytes(count: 1)))
        }
    }

    @Test func appleConstantNamesParse() {
        for accessibility in Accessibility.allCases {
            #expect(Accessibility(name: accessibility.appleConstant) == accessibility)
            #expect(Accessibility(name: accessibility.rawValue) == accessibility)
        }
        #expect(Accessibility(name: "sometimes") == nil)
    }
}
