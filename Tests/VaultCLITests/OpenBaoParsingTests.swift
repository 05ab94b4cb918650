import Testing
import VaultCore
@testable import VaultOpenBao

/// The pure parts of the OpenBao client: references, addresses, no_proxy and the HTTP response parser.
@Suite struct OpenBaoParsingTests {
    @Test func referencesNameMountPathFieldAndVersion() throws {
        let full = try OpenBaoReference(parsing: "openbao://kv/team/app/db#pass%23word?version=3")
        #expect(full == OpenBaoReference(mount: "kv", path: "team/app/db", field: "pass#word", version: 3))
        #expect(full.description == "openbao://kv/team/app/db#pass%23word?version=3")
        #expect(try OpenBaoReference(parsing: "openbao://db#user") == OpenBaoReference(mount: "secret", path: "db", field: "user"))
        let refused: [(String, SecretReferenceError)] = [
            ("openbao://secret/db", .missingField), ("openbao://secret/db#", .missingField),
            ("openbao://secret//db#x", .badPathSegment), ("openbao://secret/../db#x", .badPathSegment), ("openbao://#x", .badPathSegment),
            ("openbao://secret/db#x?version=0", .unknownQuery("version=0")), ("openbao://secret/db#x?otp", .unknownQuery("otp")),
            ("openbao://secret/d b#x", .unencodedSpace), ("openbao://secret/a%2Fb#x", .badPathSegment)
        ]
        for (text, error) in refused {
            #expect(throws: error, "\(text)") { try OpenBaoReference(parsing: text) }
        }
        #expect(try SourceReference(parsing: "openbao://s/p#f") == .openbao(OpenBaoReference(mount: "s", path: "p", field: "f")))
        #expect(try SourceReference(parsing: "vault://svc/acct") == .vault(SecretReference(service: "svc", account: "acct")))
    }

    @Test func templatesTakeOpenBaoReferences() throws {
        let segments = try Template.parse(Array("a={{ openbao://s/p#f }}\n".utf8))
        #expect(
            segments == [
                .text(Array("a=".utf8)), .reference(.openbao(OpenBaoReference(mount: "s", path: "p", field: "f")), line: 1),
                .text([0x0A])
            ])
    }

    @Test func addresses() {
        #expect(ServerAddress("http://127.0.0.1:8200")?.description == "http://127.0.0.1:8200")
        #expect(ServerAddress("https://bao.example")?.port == 443)
        #expect(ServerAddress("https://[::1]:8200/")?.host == "::1")
        #expect(ServerAddress("unix:///run/bao.sock")?.transport == .unix("/run/bao.sock"))
        for bad in [
            "", "bao.example:8200", "ftp://x", "http://", "http://h:0", "http://h:99999", "http://u@h", "http://h/v1", "unix://relative"
        ] {
            #expect(ServerAddress(bad) == nil, "\(bad)")
        }
        let rule = NoProxyRule(" .example.com, 10.0.0.1 ,")
        #expect(rule.matches("bao.example.com") && rule.matches("example.com") && rule.matches("10.0.0.1"))
        #expect(!rule.matches("example.org") && !rule.matches("notexample.com"))
        #expect(NoProxyRule("*").matches("anything"))
    }

    private func parse(_ text: String, atEnd: Bool = false) throws -> ParsedResponse? {
        try Array(text.utf8).withUnsafeBytes { try HTTPResponseParser.parse($0, atEnd: atEnd) }
    }

    @Test func responsesFramedEachWay() throws {
        let sized = try #require(try parse("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}"))
        #expect(sized.status == 200 && sized.body == [38..<40])
        #expect(try parse("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n{}") == nil, "more bytes needed")
        #expect(throws: HTTPFault.truncated) { try parse("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n{}", atEnd: true) }
        let chunked = try #require(try parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{\r\n1;x\r\n}\r\n0\r\n\r\n"))
        #expect(chunked.body.count == 2 && chunked.body.allSatisfy { $0.count == 1 })
        #expect(try parse("HTTP/1.0 404 Not Found\r\n\r\nab") == nil)
        #expect(try parse("HTTP/1.0 404 Not Found\r\n\r\nab", atEnd: true)?.body == [26..<28])
        let faults: [(String, HTTPFault)] = [
            ("HTTP/2 200 OK\r\n\r\n", .statusLine), ("HTTP/1.1 2000 OK\r\n\r\n", .statusLine),
            ("HTTP/1.1 100 Continue\r\n\r\n", .statusLine),
            ("HTTP/1.1 200 OK\r\nBad Header: x\r\n\r\n", .header), ("HTTP/1.1 200 OK\r\nX: a\nb\r\n\r\n", .header),
            ("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", .header),
            ("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", .header), ("HTTP/1.1 200 OK\r\nContent-Length: 99999999\r\n\r\n", .tooLarge),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n", .transferEncoding),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", .chunk),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nab\r\n", .chunk),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nfffffff\r\n", .tooLarge)
        ]
        for (text, fault) in faults {
            #expect(throws: fault, "\(text.debugDescription)") { try parse(text, atEnd: true) }
        }
    }
}
