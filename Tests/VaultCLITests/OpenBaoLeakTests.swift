import Foundation
import Testing

/// `vault scan` and `vault redact` with `--ref openbao://…`: values fetched from a real OpenBao dev
/// server (Support/OpenBaoServer.swift) are searched for and concealed like vault's own secrets.
@Suite(.serialized) struct OpenBaoLeakTests {
    /// A sandbox with no vault in it (references alone need none) pointed at `server` as root.
    private func sandbox(_ server: OpenBaoServer) throws -> Sandbox {
        let sandbox = try Sandbox()
        sandbox.environment.merge(server.environment) { $1 }
        return sandbox
    }

    @Test func redactConcealsAFetchedValue() throws {
        guard OpenBaoServer.available() else { return }
        let server = try OpenBaoServer()
        try server.put("secret/ci/db", ["password": "hunter2-db-pass", "user": "deploy-user"])
        let sandbox = try sandbox(server)
        let log = "connecting with hunter2-db-pass as deploy-user\n"
        let result = try sandbox.vault(
            ["redact", "--ref", "openbao://secret/ci/db#password", "--ref", "openbao://secret/ci/db#user"],
            stdin: Array(log.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText == "connecting with <concealed by vault> as <concealed by vault>\n", "\(result.stdoutText)")
        let missing = try sandbox.vault(["redact", "--ref", "openbao://secret/ci/none#password"], stdin: Array(log.utf8))
        #expect(missing.status == 44 && missing.stdoutText.isEmpty, "fails closed, nothing printed: \(missing.stdoutText)\(missing.stderr)")
        #expect(missing.stderr.contains("--ref: openbao://secret/ci/none#password: OpenBao has no secret"), "\(missing.stderr)")
        let malformed = try sandbox.vault(["redact", "--ref", "openbao://secret/ci/db"], stdin: Array(log.utf8))
        #expect(
            malformed.status == 2 && malformed.stdoutText.isEmpty && malformed.stderr.contains("it names no field"), "\(malformed.stderr)")
    }

    @Test func scanFindsAFetchedValueInAFile() throws {
        guard OpenBaoServer.available() else { return }
        let server = try OpenBaoServer()
        try server.put("secret/ci/api", ["key": "sk-live-0123456789"])
        let sandbox = try sandbox(server)
        for directory in ["out", "clean"] {
            try FileManager.default.createDirectory(atPath: sandbox.path(directory), withIntermediateDirectories: true)
        }
        try sandbox.write("out/build.log", Array("line one\ntoken=sk-live-0123456789\n".utf8))
        try sandbox.write("clean/notes.txt", Array("nothing here\n".utf8))
        let found = try sandbox.vault(["scan", "--ref", "openbao://secret/ci/api#key", sandbox.path("out")])
        #expect(found.status == 1, "\(found.stderr)")
        #expect(found.stdoutText == "\(sandbox.path("out/build.log")):2:7: openbao://secret/ci/api#key (raw)\n", "\(found.stdoutText)")
        #expect(!found.stdoutText.contains("sk-live") && !found.stderr.contains("sk-live"), "the value is never printed")
        let json = try sandbox.vault(["scan", "--json", "--ref", "openbao://secret/ci/api#key", sandbox.path("out")])
        #expect(json.status == 1 && json.stdoutText.contains("\"item\": \"openbao://secret/ci/api#key\""), "\(json.stdoutText)")
        let clean = try sandbox.vault(["scan", "--ref", "openbao://secret/ci/api#key", sandbox.path("clean")])
        #expect(clean.status == 0 && clean.stderr.contains("0 hits of 1 secret searched"), "\(clean.stderr)")
        let wrongToken = try sandbox.vault(
            ["scan", "--ref", "openbao://secret/ci/api#key", sandbox.path("out")],
            environment: ["BAO_TOKEN": "not-a-token"])
        #expect(
            wrongToken.status != 0 && wrongToken.status != 1 && wrongToken.stdoutText.isEmpty,
            "a scan that could not fetch its values is an error, never a leak: \(wrongToken.status) \(wrongToken.stderr)")
    }
}
