import Testing
import VaultCore

@Suite struct SecretReferenceTests {
    @Test func twoSegmentsAreServiceAndAccount() throws {
        let reference = try SecretReference(parsing: "vault://github/ci-bot")
        #expect(reference == SecretReference(service: "github", account: "ci-bot"))
        #expect(reference.query(defaultGroup: nil) == Query(service: "github", account: "ci-bot"))
        #expect(reference.query(defaultGroup: AccessGroup("ci")) == Query(service: "github", account: "ci-bot", group: AccessGroup("ci")))
    }

    @Test func threeSegmentsStartWithTheGroup() throws {
        let reference = try SecretReference(parsing: "vault://ci/github/ci-bot")
        #expect(reference == SecretReference(group: AccessGroup("ci"), service: "github", account: "ci-bot"))
        #expect(reference.query(defaultGroup: AccessGroup("other")).group == AccessGroup("ci"))
    }

    /// Commands' short names are references without the scheme, read by the same parser.
    @Test func namesAreReferencesWithOrWithoutTheScheme() throws {
        for text in ["registry.example.com%2Fteam/robot", "vault://registry.example.com%2Fteam/robot"] {
            #expect(try SecretReference(parsingName: text) == SecretReference(service: "registry.example.com/team", account: "robot"))
        }
        let grouped = try SecretReference(parsingName: "ci/github/ci-bot")
        #expect(grouped.group == AccessGroup("ci"))
        #expect(grouped.shortName == "ci/github/ci-bot")
        #expect(SecretReference(service: "a/b", account: "c d").shortName == "a%2Fb/c%20d")
        #expect(throws: SecretReferenceError.segmentCount(1)) { try SecretReference(parsingName: "github") }
        #expect(throws: SecretReferenceError.badEscape("%zz")) { try SecretReference(parsingName: "a%zz/b") }
    }

    @Test func emptyAccountIsNothingAfterTheLastSlash() throws {
        #expect(try SecretReference(parsing: "vault://npm/").account == "")
    }

    @Test func percentEncodingDecodesReservedCharactersAndUnicode() throws {
        let reference = try SecretReference(parsing: "vault://db%2Fprod/admin%20user%3F%25%23")
        #expect(reference.service == "db/prod")
        #expect(reference.account == "admin user?%#")
        #expect(try SecretReference(parsing: "vault://caf%C3%A9/x").service == "café")
        #expect(try SecretReference(parsing: "vault://café/x").service == "café")
    }

    @Test func descriptionRoundTripsEveryName() throws {
        let names = ["plain", "a/b", "50%", "what?", "x#y", "two words", "tab\there", "café", "=eq=", ""]
        for service in names where !service.isEmpty {
            for account in names {
                for group in [nil, AccessGroup("ci")] {
                    let reference = SecretReference(group: group, service: service, account: account)
                    #expect(try SecretReference(parsing: reference.description) == reference, "\(reference)")
                }
            }
        }
        #expect(SecretReference(service: "a/b", account: "c d").description == "vault://a%2Fb/c%20d")
    }

    @Test(arguments: [
        ("github/ci-bot", SecretReferenceError.missingScheme),
        ("vault://github", .segmentCount(1)),
        ("vault://a/b/c/d", .segmentCount(4)),
        ("vault:///ci-bot", .emptyService),
        ("vault://bad group!/s/a", .unencodedSpace),
        ("vault://-x/s/a", .invalidGroup("-x")),
        ("vault://s/a%2", .badEscape("%2")),
        ("vault://s/a%zz", .badEscape("%zz")),
        ("vault://s/a?b", .unknownQuery("b")),
        ("vault://s/a?otp?otp", .unknownQuery("otp?otp")),
        ("vault://s/a?OTP", .unknownQuery("OTP")),
        ("vault://s/a#b", .reservedCharacter("#")),
        ("vault://s/a b", .unencodedSpace),
        ("vault://s/a%FF", .notUTF8)
    ])
    func malformedReferencesSayWhy(text: String, error: SecretReferenceError) {
        #expect(throws: error) { try SecretReference(parsing: text) }
    }

    @Test func otpQueryAsksForTheOneTimeCode() throws {
        let reference = try SecretReference(parsing: "vault://ci/github/a%3Fb?otp")
        #expect(reference.part == .oneTimeCode)
        #expect(reference.account == "a?b")
        #expect(reference.description == "vault://ci/github/a%3Fb?otp")
        #expect(try SecretReference(parsing: "vault://github/a").part == .secret)
        #expect(reference != (try SecretReference(parsing: "vault://ci/github/a%3Fb")))
    }

    @Test func isReferenceLooksAtTheSchemeOnly() {
        #expect(SecretReference.isReference("vault://anything"))
        #expect(!SecretReference.isReference("https://example.com"))
        #expect(!SecretReference.isReference(" vault://x/y"))
    }
}

@Suite struct EnvironmentNameTests {
    @Test func derivedFromServiceAndAccount() {
        #expect(EnvironmentName.derived(service: "github", account: "ci-bot") == "GITHUB_CI_BOT")
        #expect(EnvironmentName.derived(service: "npm", account: "") == "NPM")
        #expect(EnvironmentName.derived(service: "db.prod", account: "admin@host") == "DB_PROD_ADMIN_HOST")
        #expect(EnvironmentName.derived(service: "1password", account: "x") == "_1PASSWORD_X")
        #expect(EnvironmentName.derived(service: "café", account: "é") == "CAF___")
        #expect(EnvironmentName.derived(service: "straße", account: "") == "STRASSE")
        #expect(EnvironmentName.derived(service: "", account: "") == "_")
    }

    /// The byte-by-byte path for ASCII names gives what the rule, written over Unicode scalars, gives.
    @Test func asciiNamesFollowTheUnicodeRule() {
        func byRule(_ service: String, _ account: String) -> String {
            let joined = account.isEmpty ? service : service + "_" + account
            var name = String(
                String.UnicodeScalarView(
                    joined.uppercased().unicodeScalars.map { scalar in
                        (("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)) ? scalar : "_"
                    }))
            if name.first?.isNumber ?? true { name = "_" + name }
            return name
        }
        var generator = SystemRandomNumberGenerator()
        let ascii = (0x20...0x7E).map { Character(UnicodeScalar(UInt8($0))) }
        for _ in 0..<2000 {
            let service = String((0..<Int.random(in: 0...6, using: &generator)).map { _ in ascii.randomElement(using: &generator)! })
            let account = String((0..<Int.random(in: 0...6, using: &generator)).map { _ in ascii.randomElement(using: &generator)! })
            #expect(EnvironmentName.derived(service: service, account: account) == byRule(service, account), "\(service) \(account)")
        }
    }
}
