import Foundation
import Testing

/// A secret's text is the writer's: `vault git-credential get` never answers with a protocol,
/// host, path, url or user name written in it, so a writer of the group cannot point git (and
/// through `approve`, git's other helpers) at another host or user.
@Suite struct GitCredentialReplayTests {
    @Test func aStoredSecretNeverNamesAnotherHostOrUser() throws {
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        try sandbox.linkHelpers()
        let planted =
            "tok-1\nprotocol=http\nhost=evil.example\nusername=root\npath=steal\nurl=http://root@evil.example/\n"
            + "password=tok-evil\ncapability[]=authtype\noauth_refresh_token=refresh-1\nfuture_attribute=kept-1\n"
        let add = try sandbox.vault(["add", "-s", "git:https://example.com", "-a", "alice"], stdin: Array(planted.utf8))
        #expect(add.status == 0, "\(add.stderr)")

        let fill = try sandbox.shell("git -c credential.helper=vault credential fill", stdin: "protocol=https\nhost=example.com\n\n")
        #expect(fill.status == 0, "\(fill.stderr)")
        let lines = fill.stdoutText.split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(4)) == ["protocol=https", "host=example.com", "username=alice", "password=tok-1"], "\(fill.stdoutText)")
        #expect(!fill.stdoutText.contains("evil") && !fill.stdoutText.contains("root"), "\(fill.stdoutText)")

        // Every other attribute kept in the secret comes back, unknown ones included (docs/INTEGRATIONS.md).
        let get = try sandbox.vault(["git-credential", "get"], stdin: Array("protocol=https\nhost=example.com\n\n".utf8))
        #expect(get.status == 0, "\(get.stderr)")
        #expect(
            get.stdoutText == "protocol=https\nhost=example.com\nusername=alice\npassword=tok-1\n"
                + "oauth_refresh_token=refresh-1\nfuture_attribute=kept-1\n", "\(get.stdoutText)")
    }
}
