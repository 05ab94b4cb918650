import Foundation
import Testing
@testable import VaultCore
import VaultCrypto

/// `set` and `value`: any Codable value as an item's secret, as JSON.
@Suite struct CodableItemTests {
    struct Login: Codable, Equatable {
        var user: String
        var password: String
        var hosts: [String]
        var port: Int
        var rotated: Date?
    }

    let login = Login(
        user: "app", password: "hunter2-secret", hosts: ["db1", "db2"], port: 5432,
        rotated: Date(timeIntervalSince1970: 1_700_000_000))

    @Test func aStructRoundTripsAsJSON() throws {
        let dir = try TempDirectory()
        let vault = try Vault.makeTest(at: dir.location())
        #expect(try vault.set(login, service: "db", account: "app") == .added)
        #expect(try vault.value(Login.self, service: "db", account: "app") == login)
        let item = try vault.item(matching: Query(service: "db", account: "app"))
        #expect(item.attributes.details.kind == "json")
        let decoded = try JSONDecoder().decode(Login.self, from: Data(item.secret.copyBytes()))
        #expect(decoded == login)
    }

    @Test func setReplacesKeepingTheCreatedDate() throws {
        let dir = try TempDirectory()
        let clock = TestClock()
        let vault = try Vault.makeTest(at: dir.location(), clock: clock)
        try vault.set(login, service: "db", account: "app")
        clock.advance(60)
        var rotated = login
        rotated.password = "new-password"
        #expect(try vault.set(rotated, service: "db", account: "app") == .replaced)
        #expect(try vault.value(Login.self, service: "db", account: "app") == rotated)
        let attributes = try vault.attributes(matching: Query(service: "db", account: "app"))
        #expect(attributes.count == 1)
        #expect(attributes.first.map { $0.modified.timeIntervalSince($0.created) } == 60)
    }

    @Test func aMissingItemThrowsItemNotFound() throws {
        let dir = try TempDirectory()
        let vault = try Vault.makeTest(at: dir.location())
        #expect(throws: VaultError.itemNotFound(Query(service: "db", account: "app", group: .default))) {
            try vault.value(Login.self, service: "db", account: "app")
        }
    }

    @Test func rawBytesThatAreNotJSONGiveADecodingErrorWithoutTheSecret() throws {
        let dir = try TempDirectory()
        let vault = try Vault.makeTest(at: dir.location())
        try vault.add("github", "ci-bot", "ghp_0123456789")
        let expected = CodableItemError(
            key: ItemKey(group: .default, service: "github", account: "ci-bot"),
            type: "Login", operation: .decoding, problem: .notJSON)
        #expect(throws: expected) { try vault.value(Login.self, service: "github", account: "ci-bot") }
        #expect(expected.status.exitCode == 93)
    }

    @Test func jsonOfAnotherShapeNamesWhatIsWrongButNoValue() throws {
        let dir = try TempDirectory()
        let vault = try Vault.makeTest(at: dir.location())
        struct Partial: Codable { var user = "app", password = "hunter2-secret" }
        try vault.set(Partial(), service: "db", account: "partial")
        try vault.set(["hosts": [12_345_678]], service: "db", account: "numbers")
        func problem<Value: Decodable>(_ type: Value.Type, _ account: String) -> CodableItemError.Problem? {
            let error = #expect(throws: CodableItemError.self) { try vault.value(type, service: "db", account: account) }
            return error?.problem
        }
        #expect(problem(Login.self, "partial") == .keyMissing("hosts", at: "$"))
        #expect(problem([String: [String]].self, "numbers") == .typeMismatch(type: "String", at: "$.hosts[0]"))
        #expect(problem([String: Int].self, "numbers") == .typeMismatch(type: "Int", at: "$.hosts"))
    }

    @Test func aValueWithNoJSONFormIsRefusedAndNothingIsStored() throws {
        let dir = try TempDirectory()
        let vault = try Vault.makeTest(at: dir.location())
        let error = #expect(throws: CodableItemError.self) { try vault.set([Double.nan], service: "metrics", account: "x") }
        #expect(error?.problem == .noJSONForm(at: "$[0]") && error?.operation == .encoding)
        #expect(try vault.attributes(matching: Query()).isEmpty)
    }

    @Test func classesAndGroupsAreHonoured() throws {
        let dir = try TempDirectory()
        let vault = try Vault.makeTest(at: dir.location())
        let ci = AccessGroup("ci")!
        try vault.set("default-token", service: "deploy", account: "bot")
        try vault.set("ci-token", service: "deploy", account: "bot", group: ci, accessibility: .afterFirstUnlock)
        #expect(try vault.value(String.self, service: "deploy", account: "bot") == "default-token")
        #expect(try vault.value(String.self, service: "deploy", account: "bot", group: ci) == "ci-token")
        let attributes = try vault.attributes(matching: Query(service: "deploy", group: ci))
        #expect(attributes.map(\.accessibility) == [.afterFirstUnlock])
        // A group the vault lacks is named as such, with the groups it has for a did-you-mean.
        #expect(throws: VaultError.noSuchGroup(AccessGroup("prod")!, known: [.default, ci])) {
            try vault.value(String.self, service: "deploy", account: "bot", group: AccessGroup("prod")!)
        }
        #expect(throws: VaultError.itemNotFound(Query(service: "deploy", account: "nobody", group: ci))) {
            try vault.value(String.self, service: "deploy", account: "nobody", group: ci)
        }

        let credential = try vault.grant(groups: [ci], readOnly: true, expires: nil)
        let scoped = Vault(location: dir.location(), keys: .scoped(credential), host: Vault.selfContainedHost(for: dir.location()))
        #expect(try scoped.value(String.self, service: "deploy", account: "bot", group: ci) == "ci-token")
        #expect(throws: VaultError.outsideCredential(group: .default, covered: [ci])) {
            try scoped.value(String.self, service: "deploy", account: "bot")
        }
        #expect(throws: VaultError.readOnlyCredential) { try scoped.set("mine", service: "deploy", account: "bot", group: ci) }
    }
}
