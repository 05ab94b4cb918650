#if canImport(Glibc)
import Glibc
#endif
import Testing
import VaultCore
import VaultCrypto
@testable import VaultCLI

/// The helpers' parsers and writers, without a vault: git's key=value
/// lines, docker's JSON and server URL, the bounded stdin reader and the
/// names vault answers to.
@Suite struct CredentialProtocolTests {
    private func parseGit(_ text: String) throws -> GitCredentialMessage {
        try Array(text.utf8).withUnsafeBytes { try GitCredentialMessage.parse($0) }
    }

    private func text(_ secret: SecretBytes) -> String { String(decoding: secret.copyBytes(), as: UTF8.self) }

    private func usageMessage(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as UsageError {
            return error.message
        } catch {
            return "unexpected \(error)"
        }
    }

    // MARK: git

    @Test func gitLinesParseInOrderAndStopAtTheBlankLine() throws {
        let message = try parseGit(
            "protocol=https\r\nhost=example.com:8443\nwwwauth[]=Basic\nwwwauth[]=Bearer\npassword=a=b\n\nignored=after blank\n")
        #expect(message.attributes.map(\.key) == ["protocol", "host", "wwwauth[]", "wwwauth[]", "password"])
        #expect(message.text("host") == "example.com:8443")
        #expect(message.text("password") == "a=b")
        #expect(message.text("ignored") == nil)
    }

    @Test func gitEmptyValueUnsetsAndEndOfInputEnds() throws {
        let message = try parseGit("username=alice\nusername=")
        #expect(message.value("username") == nil)
        #expect(try parseGit("").attributes.isEmpty)
    }

    @Test func gitBadLinesAreNamedByNumberNeverByValue() throws {
        #expect(usageMessage { _ = try parseGit("protocol=https\nhunter2\n") } == "input line 2 has no \"=\"")
        #expect(usageMessage { _ = try parseGit("=value\n") } == "input line 1 has no key before \"=\"")
        #expect(usageMessage { _ = try parseGit("password=a\u{0}b\n") } == "input line 1 holds a NUL byte")
        #expect(usageMessage { _ = try parseGit("password=a\rb\n") } == "the value of \"password\" holds a carriage return")
        let notUTF8: [UInt8] = Array("password=".utf8) + [0xFF, 0x0A]
        #expect(
            usageMessage { _ = try notUTF8.withUnsafeBytes { try GitCredentialMessage.parse($0) } }
                == "the value of \"password\" is not UTF-8 text")
    }

    @Test func gitWriterPrintsKeyValueLinesAndRefusesLineBreaks() throws {
        var message = GitCredentialMessage()
        message.append("protocol", "https")
        message.append("password", SecretBytes(Array("tok".utf8)))
        try message.validateForOutput()
        #expect(text(message.serialized()) == "protocol=https\npassword=tok\n")
        message.append("password", SecretBytes(Array("two\nlines".utf8)))
        #expect(usageMessage { try message.validateForOutput() }?.contains("stored \"password\" holds a line break") == true)
    }

    @Test func gitURLIsSplitAndEncodedLineBreaksRefused() throws {
        let message = try parseGit("url=https://alice:pw@example.com:8080/org/repo.git\n").resolvingURL()
        #expect(message.text("protocol") == "https")
        #expect(message.text("host") == "example.com:8080")
        #expect(message.text("path") == "org/repo.git")
        #expect(message.text("username") == "alice")
        #expect(message.text("password") == nil)
        let own = try parseGit("host=given\nurl=https://example.com\n").resolvingURL()
        #expect(own.text("host") == "given")
        #expect(
            usageMessage { _ = try parseGit("url=https://example.com/a%0Ab\n").resolvingURL() }
                == "the url's path holds an encoded line break or NUL byte")
        #expect(usageMessage { _ = try parseGit("url=example.com\n").resolvingURL() } == "the url has no \"PROTOCOL://\"")
    }

    @Test func gitLocationsRoundTripThroughServices() throws {
        let withPath = GitCredentialLocation(scheme: "https", host: "example.com", path: "org/repo.git")
        #expect(withPath.service == "git:https://example.com/org/repo.git")
        #expect(GitCredentialLocation(service: withPath.service) == withPath)
        #expect(
            GitCredentialLocation(service: "git:https://example.com")
                == GitCredentialLocation(scheme: "https", host: "example.com", path: nil))
        #expect(GitCredentialLocation(service: "github") == nil)
        #expect(GitCredentialLocation(service: "docker:https://example.com") == nil)
        #expect(GitCredentialLocation(request: try parseGit("host=example.com\n")) == nil)
    }

    @Test func gitSecretKeepsPasswordFirstAndOtherAttributesAfter() {
        let joined = GitCredentialItems.joinSecret(
            SecretBytes(Array("pw".utf8)),
            [.init(key: "oauth_refresh_token", value: SecretBytes(Array("rt".utf8)))])
        #expect(text(joined) == "pw\noauth_refresh_token=rt")
        let (password, rest) = GitCredentialItems.splitSecret(SecretBytes(Array("pw\r\nnot a pair\nk=v\n".utf8)))
        #expect(text(password) == "pw")
        #expect(rest.map(\.key) == ["k"])
        #expect(text(GitCredentialItems.joinSecret(password, [])) == "pw")
    }

    // MARK: docker

    @Test func dockerStoreInputParses() throws {
        let json = #" { "ServerURL" : "https://r.example", "username":"u\u00e9", "Secret":"a\"b\\c\/\ud83d\ude00", "Other":"x" } "#
        let credential = try Array(json.utf8).withUnsafeBytes { try DockerCredential.parse($0) }
        #expect(credential.serverURL == "https://r.example")
        #expect(credential.username == "ué")
        #expect(text(credential.secret) == "a\"b\\c/😀")
    }

    @Test func dockerBadJSONIsNamedByPlace() {
        func message(_ json: String) -> String? {
            usageMessage { _ = try Array(json.utf8).withUnsafeBytes { try DockerCredential.parse($0) } }
        }
        #expect(message("") == "the input is not valid JSON: expected \"{\" at the end of the input")
        #expect(message("[]") == "the input is not valid JSON: expected \"{\" at byte 0")
        #expect(
            message(#"{"ServerURL":"x","Username":"u","Secret":"s"} trailing"#)
                == "the input is not valid JSON: expected the end of the input at byte 46")
        #expect(message(#"{"ServerURL":true}"#) == "the input is not valid JSON: expected a string value at byte 13")
        #expect(message(#"{"ServerURL":"\ud800"}"#)?.contains("surrogate") == true)
        #expect(message(#"{"ServerURL":"\q"}"#) == "the input is not valid JSON: expected a valid escape at byte 15")
        #expect(message(#"{"ServerURL":"x","Username":"u"}"#) == "the input has no Secret")
        #expect(message(#"{"ServerURL":"x","Username":"","Secret":"s"}"#) == "the input has no Username")
        #expect(message(#"{"ServerURL":"x\r","Username":"u","Secret":"s"}"#) == "the ServerURL holds a line break or NUL byte")
        #expect(message(#"{"ServerURL":"x","Username":"u","Secret":"s\u0000"}"#) == "the Secret holds a line break or NUL byte")
    }

    @Test func dockerServerURLIsTrimmedAndOneLine() throws {
        func url(_ text: String) throws -> String { try Array(text.utf8).withUnsafeBytes { try DockerCredential.serverURL($0) } }
        #expect(try url(" https://r.example\r\n") == "https://r.example")
        #expect(usageMessage { _ = try url("\n\n") } == "no credentials server URL")
        #expect(usageMessage { _ = try url("https://a\nhttps://b") } == "the server URL holds a line break or NUL byte")
    }

    @Test func dockerWritersPrintTheProtocolsJSON() throws {
        let credential = DockerCredential(
            serverURL: "https://r.example", username: "u\"1",
            secret: SecretBytes(Array("s\n\u{1}é".utf8)))
        #expect(text(try credential.json()) == #"{"ServerURL":"https://r.example","Username":"u\"1","Secret":"s\n\u0001é"}"# + "\n")
        let binary = DockerCredential(serverURL: "x", username: "u", secret: SecretBytes([0xFF]))
        #expect(usageMessage { _ = try binary.json() } == "the stored secret is not UTF-8 text, which JSON cannot carry")
        #expect(DockerCredentialItems.listJSON([("a", "b"), ("c\"", "d")]) == #"{"a":"b","c\"":"d"}"# + "\n")
        #expect(DockerCredentialItems.listJSON([]) == "{}\n")
    }

    // MARK: stdin and program names

    private func readThroughPipe(_ bytes: [UInt8], untilBlankLine: Bool) throws -> [UInt8] {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        // Write from another thread: the input may be larger than the pipe's buffer.
        let writer = fds[1]
        let thread = Thread {
            bytes.withUnsafeBytes { _ = write(writer, $0.baseAddress, $0.count) }; close(writer)
        }
        thread.start()
        defer { thread.join() }
        return try HelperInput.read(from: fds[0], untilBlankLine: untilBlankLine).copyBytes()
    }

    @Test func inputStopsAtBlankLineOrEnd() throws {
        #expect(try readThroughPipe(Array("a=1\nb=2\n\nc=3\n".utf8), untilBlankLine: true) == Array("a=1\nb=2\n".utf8) + [0x0A])
        #expect(try readThroughPipe(Array("a=1\r\n\r\nc".utf8), untilBlankLine: true) == Array("a=1\r\n\r\n".utf8))
        #expect(try readThroughPipe(Array("x\n\ny".utf8), untilBlankLine: false) == Array("x\n\ny".utf8))
        #expect(try readThroughPipe([UInt8](repeating: 0x61, count: HelperInput.limit), untilBlankLine: false).count == HelperInput.limit)
        let over = [UInt8](repeating: 0x61, count: HelperInput.limit + 1)
        #expect(usageMessage { _ = try readThroughPipe(over, untilBlankLine: false) } == "the input is over 64 KiB")
    }

    @Test func programNamesPickTheHelper() {
        #expect(
            HelperProgram.arguments(invokedAs: "/usr/bin/git-credential-vault", ["--group", "ci", "get"]) == [
                "git-credential", "--group", "ci", "get"
            ])
        #expect(HelperProgram.arguments(invokedAs: "docker-credential-vault", ["list"]) == ["docker-credential", "list"])
        #expect(HelperProgram.arguments(invokedAs: "/usr/local/bin/vault", ["list"]) == ["list"])
        // git asks helpers to ignore operations they do not know.
        #expect(HelperProgram.arguments(invokedAs: "git-credential-vault", ["capability"]) == nil)
        #expect(HelperProgram.arguments(invokedAs: "git-credential-vault", ["--help"]) == ["git-credential", "--help"])
    }
}

/// Minimal thread wrapper over pthreads, for writing into a pipe while reading it.
private final class Thread: @unchecked Sendable {
    private let body: () -> Void
    private var handle = pthread_t()

    init(_ body: @escaping () -> Void) { self.body = body }

    func start() {
        let box = Unmanaged.passRetained(self).toOpaque()
        pthread_create(
            &handle, nil,
            { raw in
                let thread = Unmanaged<Thread>.fromOpaque(raw!).takeRetainedValue()
                thread.body()
                return nil
            }, box)
    }

    func join() { pthread_join(handle, nil) }
}
