import Foundation
import Testing
@testable import VaultCLI
import VaultCore

/// Names quoted for messages and for commands in hints: no raw control
/// character reaches the terminal, and a quoted word reads back in a shell.
@Suite struct QuotingTests {
    @Test(arguments: [
        "plain", "two words", "it's", "esc\u{1b}[2J", "tab\there", "new\nline", "back\\slash \"q\"", "del\u{7f}", "ünï",
        "csi\u{9b}31m", "nel\u{85}£", "rlo\u{202e}txt", "zw\u{200b}sp", "tag\u{e0001}"
    ])
    func shellQuotedReadsBackInBash(name: String) throws {
        let word = shellQuoted(name)
        #expect(!word.unicodeScalars.contains(where: HiddenCharacters.mustShow), "raw control character in \(word.debugDescription)")
        let sandbox = try Sandbox()
        let result = try sandbox.run("/bin/bash", ["-c", "printf %s \(word)"])
        #expect(result.stdoutText == name, "\(word) reads back as \(result.stdoutText.debugDescription)")
    }

    /// Text others chose (names, git authors) reaches the terminal with every C0, DEL and C1 control escaped, and nothing else changed.
    @Test func printableEscapesEveryTerminalControlAndNothingElse() {
        #expect(ItemOutput.printable("red\u{1b}[31m") == "red\\u{1b}[31m")
        #expect(ItemOutput.printable("csi\u{9b}2J") == "csi\\u{9b}2J")
        #expect(ItemOutput.printable("pound £ and \"quotes\"") == "pound £ and \"quotes\"")
        #expect(quoted("nel\u{85}") == "\"nel\\u{85}\"")
    }

    /// Bidirectional and other format characters reorder or hide text: plain text and JSON show them as escapes.
    @Test func formatCharactersAreMadeVisibleInPlainTextAndJSON() {
        #expect(ItemOutput.printable("invoice\u{202e}fdp.exe") == "invoice\\u{202e}fdp.exe")
        #expect(ItemOutput.printable("zero\u{200b}width\u{feff}") == "zero\\u{200b}width\\u{feff}")
        #expect(ItemOutput.jsonString("a\u{202e}\u{9b}\u{7f}\u{2066}b") == "\"a\\u202e\\u009b\\u007f\\u2066b\"")
        #expect(ItemOutput.jsonString("tag\u{e0001}") == "\"tag\\udb40\\udc01\"")
        #expect(ItemOutput.jsonString("ünï £ 日本") == "\"ünï £ 日本\"")
    }

    @Test func bytesThatAreNotUTF8AreShownAsHex() {
        #expect(quoted(bytes: Array("bad".utf8) + [0xFF, 0x1B] + Array("\"x".utf8)) == #""bad\xFF\x1B\"x""#)
    }
}

/// What `list` prints for every item: dates and display widths, on their fast paths and off them.
@Suite struct ListCellTests {
    @Test func isoDatesAreUTCToTheSecond() {
        #expect(DateText.iso(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(DateText.iso(Date(timeIntervalSince1970: 1_800_000_000.9)) == "2027-01-15T08:00:00Z")
        #expect(DateText.iso(DateText.latest) == "9999-12-31T23:59:59Z")
        #expect(DateText.iso(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
        #expect(DateText.iso(Date(timeIntervalSince1970: 253_402_300_800)) == "10000-01-01T00:00:00Z")
        for date in [Date(timeIntervalSince1970: 1_234_567_890), Date(timeIntervalSince1970: 4_102_444_799)] {
            #expect(DateText.parse(DateText.iso(date)) == date)
        }
    }

    @Test func widthsOfASCIIAndOtherText() {
        #expect(DisplayWidth.of("github") == 6)
        #expect(DisplayWidth.of("") == 0)
        #expect(DisplayWidth.of("日本") == 4)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("🔑x") == 3)
    }

    @Test func jsonStringsEscapeOnlyWhatTheyMust() {
        #expect(ItemOutput.jsonString("plain text") == "\"plain text\"")
        #expect(ItemOutput.jsonString("q\"b\\n\nt\u{1}") == #""q\"b\\n\nt\u0001""#)
        #expect(ItemOutput.jsonString("ünï\u{7f}") == "\"ünï\\u007f\"")
    }
}
