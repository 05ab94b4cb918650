import Foundation
import Testing

/// Text others chose reaches the terminal, a plain-text reader and JSON with every character that
/// a terminal acts on or that hides or reorders text made visible (C0, DEL, C1, bidirectional and
/// other format characters): one table of printing commands, one of hostile names.
@Suite struct HiddenCharacterOutputTests {
    /// Each character, with how JSON must write it.
    static let hostile: [(character: String, json: String)] = [
        ("\u{1b}[31m", "\\u001b"), ("\u{9b}2J", "\\u009b"), ("\u{7f}", "\\u007f"), ("\u{202e}", "\\u202e"),
        ("\u{2066}", "\\u2066"), ("\u{200b}", "\\u200b"), ("\u{feff}", "\\ufeff"), ("\u{2028}", "\\u2028")
    ]

    /// A printing command: its arguments (NAME stands for the hostile service name) and whether it prints JSON.
    struct Printer: CustomStringConvertible {
        var arguments: [String]
        var json = false
        var description: String { arguments.joined(separator: " ") }
    }

    static let printers: [Printer] = [
        Printer(arguments: ["list"]),
        Printer(arguments: ["list", "--json"], json: true),
        Printer(arguments: ["get", "-s", "NAME", "-a", "bob", "--json"], json: true),
        Printer(arguments: ["history", "-s", "NAME", "-a", "bob"]),
        Printer(arguments: ["trash"]),
        Printer(arguments: ["trash", "--json"], json: true),
        Printer(arguments: ["import", "--from", "csv", "import.csv", "--columns", "service=name,account=user,secret=pass", "--dry-run"]),
        Printer(arguments: ["get", "-s", "NAME", "-a", "nobody"]),
        Printer(arguments: ["add", "-s", "NAME", "-a", "bob", "-w", "again"]),
        Printer(arguments: ["scan", "--json", "."], json: true),
        Printer(arguments: ["scan", "."])
    ]

    static let cases: [(Printer, Int)] = printers.flatMap { printer in hostile.indices.map { (printer, $0) } }

    @Test(arguments: cases)
    func everyPrintingCommandMakesHiddenCharactersVisible(printer: Printer, index: Int) throws {
        let (character, jsonEscape) = Self.hostile[index]
        let name = "svc" + character + "x"
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        let add = try sandbox.vault(["add", "-s", name, "-a", "bob"], stdin: Array("leaked-secret-\(index)".utf8))
        #expect(add.status == 0, "\(add.stderr)")
        _ = try sandbox.vault(["add", "-s", "gone" + character, "-a", "bob", "-w", "gone-secret"])
        _ = try sandbox.vault(["delete", "--yes", "-s", "gone" + character, "-a", "bob"])
        try sandbox.write("import.csv", Array("name,user,pass\nimported\(character),bob,s3cret-value\n".utf8))
        try sandbox.write("leak\(character).txt", Array("leaked-secret-\(index)\n".utf8))
        let arguments = printer.arguments.map { $0 == "NAME" ? name : $0 }
        let result = try sandbox.vault(arguments)
        let output = result.stdoutText + result.stderr
        // Each command prints a hostile name: the item's, the trashed one's, the imported one's or the leaking file's.
        #expect(["svc", "gone", "imported", "leak"].contains { output.contains($0) }, "\(printer) printed none of the names: \(output)")
        let raw = Array(character.unicodeScalars).first!
        #expect(
            !output.unicodeScalars.contains(raw), "\(printer) printed U+\(String(raw.value, radix: 16)) raw: \(output.debugDescription)")
        if printer.json {
            #expect(result.stdoutText.contains(jsonEscape), "\(printer): \(result.stdoutText)")
        } else {
            #expect(output.contains("\\u{\(String(raw.value, radix: 16))}") || output.contains("%"), "\(printer): \(output)")
        }
    }
}
