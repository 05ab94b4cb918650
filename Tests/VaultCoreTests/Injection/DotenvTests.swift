import Testing
@testable import VaultCore

@Suite struct DotenvTests {
    @Test func everyFormOfAssignment() throws {
        let text = """
            # a comment
            PLAIN=value
              SPACED = spaced value   # trailing comment
            export EXPORTED=vault://github/ci-bot
            EMPTY=
            HASH=a#b
            SINGLE='literal $HOME \\n # kept'
            DOUBLE="tab\\there \\"quoted\\" \\$HOME\\\\ \\q"
            MULTI="line one
            line two"
            RAW='a
            b'   # comment after a quote
            CRLF=windows\r

            LAST=end
            """
        let entries = try Dotenv.parse(text)
        let pairs = entries.map { "\($0.name)=\($0.value)" }
        #expect(
            pairs == [
                "PLAIN=value",
                "SPACED=spaced value",
                "EXPORTED=vault://github/ci-bot",
                "EMPTY=",
                "HASH=a#b",
                "SINGLE=literal $HOME \\n # kept",
                "DOUBLE=tab\there \"quoted\" $HOME\\ \\q",
                "MULTI=line one\nline two",
                "RAW=a\nb",
                "CRLF=windows",
                "LAST=end"
            ])
        #expect(entries.map(\.line) == [2, 3, 4, 5, 6, 7, 8, 9, 11, 13, 15])
    }

    @Test(
        arguments: [
            ("NAME value", 1, .expectedEquals(after: "NAME")),
            ("\n\n1NAME=x", 3, .invalidName("1NAME")),
            ("A=1\nB='open\nC=2", 2, .unclosedQuote("'")),
            ("A=\"x\" junk", 1, .textAfterQuote),
            ("=value", 1, .expectedAssignment)
        ] as [(String, Int, DotenvError.Reason)])
    func malformedLinesNameTheirLine(text: String, line: Int, reason: DotenvError.Reason) {
        #expect(throws: DotenvError(line: line, reason: reason)) { try Dotenv.parse(text) }
    }

    @Test func validNames() {
        #expect(Dotenv.isValidName("_A1"))
        #expect(Dotenv.isValidName("github_token"))
        #expect(!Dotenv.isValidName("1A"))
        #expect(!Dotenv.isValidName("A-B"))
        #expect(!Dotenv.isValidName(""))
    }
}

@Suite struct TemplateTests {
    @Test func referencesBetweenBracesAreFoundAndTheRestKept() throws {
        let text = Array("url: {{ vault://ci/db/admin }}\nkey: {{vault://api/x%20y}} {{ other }} {{\n".utf8)
        let segments = try Template.parse(text)
        #expect(
            segments == [
                .text(Array("url: ".utf8)),
                .reference(.vault(SecretReference(group: AccessGroup("ci"), service: "db", account: "admin")), line: 1),
                .text(Array("\nkey: ".utf8)),
                .reference(.vault(SecretReference(service: "api", account: "x y")), line: 2),
                .text(Array(" {{ other }} {{\n".utf8))
            ])
    }

    @Test func binaryBytesPassThrough() throws {
        let bytes: [UInt8] = [0, 255, 0x7B, 0x0A, 0xC3]
        #expect(try Template.parse(bytes) == [.text(bytes)])
        #expect(try Template.parse([]) == [])
    }

    @Test func unclosedOrBadReferencesNameTheLine() {
        #expect(throws: TemplateError(line: 2, reason: .unclosedReference)) {
            try Template.parse(Array("ok\n{{ vault://a/b\n}}".utf8))
        }
        #expect(throws: TemplateError(line: 1, reason: .badReference("vault://a", .segmentCount(1)))) {
            try Template.parse(Array("{{ vault://a }}".utf8))
        }
    }
}
