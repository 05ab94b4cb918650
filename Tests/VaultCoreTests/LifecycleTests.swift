import Foundation
import Testing
@testable import VaultCore
import VaultCrypto

/// Expiry, wipe, export/import, reset and verify, through the library with an injected clock.
@Suite struct LifecycleTests {
    let ci = AccessGroup("ci")!
    let prod = AccessGroup("prod")!

    func add(
        _ vault: Vault, _ service: String, _ account: String, group: AccessGroup = .default,
        accessibility: Accessibility = .default, expires: Date? = nil, label: String? = nil
    ) throws {
        try vault.add(
            NewItem(
                service: service, account: account, group: group, accessibility: accessibility,
                details: ItemDetails(label: label, comment: "c-\(service)", expires: expires),
                secret: SecretBytes(Array("secret-\(service)-\(account)".utf8))))
    }

    func keys(_ vault: Vault) throws -> [String] {
        try vault.attributes(matching: Query()).map { "\($0.group.name)/\($0.service)/\($0.account)" }.sorted()
    }

    @Test func expiredItemsAreNotReturnedButListedAndWiped() throws {
        let dir = try TempDirectory()
        let clock = TestClock()
        let vault = try Vault.makeTest(at: dir.location(), clock: clock)
        let expiry = clock.now.addingTimeInterval(600)
        try add(vault, "soon", "x", expires: expiry)
        try add(vault, "later", "x", expires: clock.now.addingTimeInterval(6000))
        try add(vault, "never", "x")
        #expect(try vault.secret("soon", "x") == "secret-soon-x")
        clock.advance(600)
        #expect(throws: VaultError.self) { try vault.secret("soon", "x") }
        do {
            _ = try vault.secret("soon", "x")
        } catch let error as VaultError {
            guard case .item(.itemExpired(let attributes)) = error else { Issue.record("\(error)"); return }
            #expect(attributes.details.expires == expiry)
            #expect(error.status.exitCode == 44)
        }
        #expect(try vault.attributes(matching: Query()).filter { $0.hasExpired(at: clock.now) }.map(\.service) == ["soon"])
        let outcome = try vault.wipe(WipeFilter(expiredOnly: true), dryRun: false)
        #expect(outcome.removed.map(\.service) == ["soon"])
        #expect(outcome.rekeyedGroups.isEmpty)
        #expect(try keys(vault) == ["default/later/x", "default/never/x"])
        // update --expires never removes an expiry.
        try vault.update(matching: Query(service: "later", account: "x"), with: ItemChange(removesExpiry: true))
        clock.advance(100_000)
        #expect(try vault.secret("later", "x") == "secret-later-x")
    }

    @Test func wipeFiltersAloneAndCombined() throws {
        let dir = try TempDirectory()
        let clock = TestClock()
        let vault = try Vault.makeTest(at: dir.location(), clock: clock)
        try add(vault, "api", "old", group: ci)
        clock.advance(86400 * 10)
        try add(vault, "api", "new", group: ci)
        try add(vault, "db", "new", group: ci, expires: clock.now)
        try add(vault, "api", "new", group: prod)
        let tenDaysAgoish = clock.now.addingTimeInterval(-86400)
        func plan(_ filter: WipeFilter) throws -> [String] {
            try vault.wipe(filter, dryRun: true).removed.map { "\($0.group.name)/\($0.service)/\($0.account)" }.sorted()
        }
        #expect(try plan(WipeFilter(query: Query(group: ci))) == ["ci/api/new", "ci/api/old", "ci/db/new"])
        #expect(try plan(WipeFilter(query: Query(service: "api"))) == ["ci/api/new", "ci/api/old", "prod/api/new"])
        #expect(try plan(WipeFilter(query: Query(account: "new"))) == ["ci/api/new", "ci/db/new", "prod/api/new"])
        #expect(try plan(WipeFilter(expiredOnly: true)) == ["ci/db/new"])
        #expect(try plan(WipeFilter(modifiedBefore: tenDaysAgoish)) == ["ci/api/old"])
        #expect(try plan(WipeFilter(query: Query(service: "api", group: ci), modifiedBefore: tenDaysAgoish)) == ["ci/api/old"])
        #expect(try plan(WipeFilter(query: Query(service: "api", account: "new", group: prod))) == ["prod/api/new"])
        #expect(try plan(WipeFilter(query: Query(group: prod), expiredOnly: true)) == [])
        #expect(throws: VaultError.noSuchGroup(AccessGroup("nope")!, known: [.default, AccessGroup("ci")!, AccessGroup("prod")!])) {
            try plan(WipeFilter(query: Query(group: AccessGroup("nope")!)))
        }
        // Dry runs changed nothing; a combined filter removes exactly its items.
        #expect(try keys(vault).count == 4)
        // What a dry run showed must still be what goes.
        let shown = try vault.wipe(WipeFilter(query: Query(account: "new", group: ci)), dryRun: true).removed
        try add(vault, "late", "new", group: ci)
        let before = fileBytes(dir.location().path)
        #expect(throws: VaultError.changedSinceShown) {
            try vault.wipe(WipeFilter(query: Query(account: "new", group: ci)), dryRun: false, expecting: shown)
        }
        #expect(fileBytes(dir.location().path) == before)
        try vault.delete(matching: Query(service: "late", account: "new"))
        let removed = try vault.wipe(WipeFilter(query: Query(account: "new", group: ci)), dryRun: false, expecting: shown)
        #expect(removed.removedCount == 2)
        #expect(try keys(vault) == ["ci/api/old", "prod/api/new"])
    }

    @Test func wipingAWholeGroupGivesItAFreshKey() throws {
        let dir = try TempDirectory()
        let vault = try Vault.makeTest(at: dir.location())
        try add(vault, "api", "x", group: ci)
        try add(vault, "db", "x", group: prod)
        let credential = try vault.grant(groups: [ci], readOnly: true, expires: nil)
        let outcome = try vault.wipe(WipeFilter(query: Query(group: ci)), dryRun: false)
        #expect(outcome.removedCount == 1 && outcome.rekeyedGroups == [ci])
        try add(vault, "api", "y", group: ci)
        let scoped = Vault(location: dir.location(), keys: .scoped(credential), host: Vault.selfContainedHost(for: dir.location()))
        #expect(throws: VaultError.credentialRevoked(ci)) { try scoped.secret("api", "y") }
        #expect(try keys(vault) == ["ci/api/y", "prod/db/x"])
    }

    @Test func exportImportRoundTripsPortableItemsWithDates() throws {
        let dir = try TempDirectory()
        let clock = TestClock()
        let source = try Vault.makeTest(at: dir.location("a.vault"), clock: clock)
        try add(source, "api", "x", group: ci, accessibility: .afterFirstUnlock, expires: clock.now.addingTimeInterval(9999), label: "L")
        clock.advance(50)
        try add(source, "db", "y", group: prod, accessibility: .always)
        try add(source, "disk", "z", accessibility: .whenUnlockedThisDeviceOnly)
        try add(source, "cron", "z", accessibility: .alwaysThisDeviceOnly)
        let bundleKey = UnlockSecret.keyFile(SecretBytes(Array("vault-key-v1:bundle-key-material-0123456789abcdef\n".utf8)))
        let bundle = dir.path + "/out.vexport"
        let outcome = try source.export(to: bundle, credential: bundleKey, kdf: .testing)
        #expect(outcome.exported == 2 && outcome.leftOut == 2)
        #expect(FileSystem.mode(bundle) == 0o600)
        #expect(throws: VaultError.io(path: bundle, operation: .create, errno: EEXIST)) {
            try source.export(to: bundle, credential: bundleKey, kdf: .testing)
        }

        let target = try Vault.makeTest(at: dir.location("b.vault"))
        #expect(try target.importBundle(at: bundle, credential: bundleKey, onConflict: .fail) == Vault.ImportOutcome(added: 2))
        let portable = try source.attributes(matching: Query()).filter { !$0.accessibility.isDeviceBound }
        #expect(try target.attributes(matching: Query()) == portable)
        #expect(try target.secret("api", "x") == "secret-api-x")
        #expect(try target.secret("db", "y") == "secret-db-y")

        // Conflicts: fail imports nothing, skip keeps, replace overwrites.
        try target.update(matching: Query(service: "api", account: "x"), with: ItemChange(secret: SecretBytes(Array("changed".utf8))))
        try target.delete(matching: Query(service: "db", account: "y"))
        let before = fileBytes(dir.location("b.vault").path)
        #expect(throws: VaultError.duplicateItem(ItemKey(group: ci, service: "api", account: "x"))) {
            try target.importBundle(at: bundle, credential: bundleKey, onConflict: .fail)
        }
        #expect(fileBytes(dir.location("b.vault").path) == before)
        #expect(try target.importBundle(at: bundle, credential: bundleKey, onConflict: .skip) == Vault.ImportOutcome(added: 1, skipped: 1))
        #expect(try target.secret("api", "x") == "changed")
        #expect(try target.importBundle(at: bundle, credential: bundleKey, onConflict: .replace) == Vault.ImportOutcome(replaced: 2))
        #expect(try target.secret("api", "x") == "secret-api-x")

        // The wrong key is "wrong key file"; a damaged bundle is "damaged" and imports nothing.
        let wrongKey = UnlockSecret.keyFile(SecretBytes(Array("vault-key-v1:another-key-material-0123456789abcd\n".utf8)))
        #expect(throws: VaultError.wrongBundleCredential(.keyFile)) {
            try target.importBundle(at: bundle, credential: wrongKey, onConflict: .skip)
        }
        var damaged = fileBytes(bundle)
        damaged[damaged.count - 20] ^= 1
        writeBytes(damaged, to: bundle + ".bad")
        #expect(throws: VaultError.damagedBundle(path: bundle + ".bad", detail: .doesNotOpen(.bundleItems))) {
            try target.importBundle(at: bundle + ".bad", credential: bundleKey, onConflict: .skip)
        }
    }

    @Test func resetLeavesNothingOfTheVault() throws {
        let dir = try TempDirectory()
        let location = VaultLocation(path: dir.path + "/data/test.vault")
        var host = HostContext.live(environment: [
            "XDG_RUNTIME_DIR": dir.path + "/run", "XDG_DATA_HOME": dir.path + "/state",
            "XDG_STATE_HOME": dir.path + "/seen"
        ])
        host.bootID = { "boot-1" }
        try Vault.create(at: location, credential: testKeyFile, kdf: .testing, host: host)
        let vault = Vault(location: location, keys: .credential(testKeyFile), host: host)
        try vault.add("a", "b", "c")
        _ = try vault.startSession()
        #expect(!FileSystem.list(dir.path + "/run/vault").isEmpty)
        let outcome = try vault.reset()
        #expect(outcome.sessionsEnded == 1)
        #expect(!FileSystem.exists(dir.path + "/data"))
        #expect(FileSystem.list(dir.path + "/run/vault").isEmpty)
        #expect(FileSystem.list(dir.path + "/state/vault/device-keys").isEmpty)
        #expect(FileSystem.list(dir.path + "/seen/vault/seen").isEmpty)
    }

    @Test func resetRemovesOnlyItsOwnDeviceKey() throws {
        let dir = try TempDirectory()
        _ = try Vault.makeTest(at: dir.location("a.vault"))
        _ = try Vault.makeTest(at: dir.location("b.vault"))
        let (keyOfA, keyOfB) = (deviceKeyPath(of: dir.location("a.vault")), deviceKeyPath(of: dir.location("b.vault")))
        #expect(keyOfA != keyOfB && FileSystem.exists(keyOfA))
        _ = try Vault(location: dir.location("a.vault"), credential: testKeyFile).reset()
        #expect(!FileSystem.exists(dir.location("a.vault").path))
        #expect(!FileSystem.exists(keyOfA))
        #expect(FileSystem.exists(keyOfB))
    }

    @Test func verifyCountsDamagedRecordsAndExposedFiles() throws {
        let dir = try TempDirectory()
        let vault = try Vault.makeTest(at: dir.location())
        try vault.add("a", "x", "1")
        try vault.add("b", "x", "2")
        var report = try vault.verify()
        #expect(!report.isDamaged && report.opened == 2 && report.exposedFiles.isEmpty)
        var bytes = fileBytes(dir.location().path)
        bytes[bytes.count - 5] ^= 0x40
        writeBytes(bytes, to: dir.location().path)
        report = try vault.verify()
        #expect(report.isDamaged && report.damagedRecords == 1 && report.opened == 1)
        // Export saves what still opens and counts the rest.
        let saved = try vault.export(to: dir.path + "/rescue.vexport", credential: testKeyFile, kdf: .testing)
        #expect(saved.exported == 1 && saved.damaged == 1)
        chmod(deviceKeyPath(of: dir.location()), 0o644)
        report = try vault.verify()
        #expect(report.exposedFiles.map(\.path) == [deviceKeyPath(of: dir.location())])
    }
}
