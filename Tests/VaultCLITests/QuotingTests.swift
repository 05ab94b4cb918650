import Foundation
import Testing
@testable import VaultCLI

/// Names quoted for messages and for commands in hints: no raw control
/// character reaches the terminal, and a quoted word reads back in a shell.
@Suite struct QuotingTests {
    @Test(arguments: ["plain", "two words", "it's", "esc\u{1b}[2J", "tab\there", "new\nline", "back\\slash \"q\"", "del\u{7f}", "ünï"])
    func shellQuotedReadsBackInBash(name: String) throws {
        let word = shellQuoted(name)
        #expect(!word.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "raw control character in \(word.debugDescription)")
        let sandbox = try Sandbox()
        let result = try sandbox.run("/bin/bash", ["-c", "printf %s \(word)"])
        #expect(result.stdoutText == name, "\(word) reads back as \(result.stdoutText.debugDescription)")
    }

    @Test func bytesThatAreNotUTF8AreShownAsHex() {
        #expect(quoted(bytes: Array("bad".utf8) + [0xFF, 0x1B] + Array("\"x".utf8)) == #""bad\xFF\x1B\"x""#)
    }
}
