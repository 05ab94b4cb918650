import Foundation
import Testing
@testable import VaultCLI

/// The rules of errors and warnings (docs/ARCHITECTURE.md, "Errors and warnings"), checked on the
/// sources: `VaultError` has a few cases, each wrapping one room's error type declared in that
/// room's folder and worded in that room's renderer; vault's `vault: …` lines on stderr are written
/// by one type, `Diagnostics`.
@Suite struct ErrorsByRoomRuleTests {
    static let root = Sandbox.packageRoot + "/Sources/"

    /// Every Swift file under Sources/`module`, by its path from Sources/.
    static func sources(_ module: String) -> [(path: String, text: String)] {
        (FileManager.default.enumerator(atPath: root + module)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".swift") }
            .compactMap { file in
                (try? String(contentsOfFile: root + module + "/" + file, encoding: .utf8)).map { (module + "/" + file, $0) }
            }
    }

    /// The cases of `VaultError` itself (not of the types it wraps): name and payload.
    static func topLevelCases() throws -> [(name: String, payload: String)] {
        let text = try String(contentsOfFile: root + "VaultCore/Errors/VaultError.swift", encoding: .utf8)
        let start = try #require(text.range(of: "public enum VaultError: Error, Equatable {"))
        let end = try #require(text.range(of: "public var status: Status", range: start.upperBound..<text.endIndex))
        let body = String(text[start.upperBound..<end.lowerBound])
        let regex = try NSRegularExpression(pattern: #"(?m)^\s*(?:indirect\s+)?case\s+(\w+)(?:\((.*)\))?\s*$"#)
        return regex.matches(in: body, range: NSRange(body.startIndex..., in: body)).map { match in
            let group = { (index: Int) in Range(match.range(at: index), in: body).map { String(body[$0]) } ?? "" }
            return (group(1), group(2))
        }
    }

    /// The room folder (under VaultCore/) that declares `public enum name`, and the file.
    static func declaration(of name: String) -> (room: String, file: String)? {
        sources("VaultCore").first { $0.text.contains("public enum \(name):") }.map { file in
            let parts = file.path.split(separator: "/").map(String.init)
            return (parts.count > 2 ? parts[1] : "", parts.last ?? "")
        }
    }

    @Test func sourcesAreFound() throws {
        #expect(Self.sources("VaultCLI").count > 150)
        #expect(try Self.topLevelCases().count > 1)
    }

    /// `VaultError`'s top level is a few cases, each wrapping one type named `…Error`, declared in
    /// its own file in a room's folder (not Errors/), each room's type once.
    @Test func vaultErrorIsNestedByRoom() throws {
        let cases = try Self.topLevelCases()
        #expect(cases.count <= 12, "VaultError has \(cases.count) top-level cases: \(cases.map(\.name))")
        for (name, payload) in cases {
            #expect(
                payload.range(of: #"^[A-Z]\w*Error$"#, options: .regularExpression) != nil,
                "VaultError.\(name) wraps \(payload.isEmpty ? "nothing" : payload), not one room's error type")
            guard let place = Self.declaration(of: payload) else {
                Issue.record("VaultError.\(name): no `public enum \(payload):` in VaultCore"); continue
            }
            #expect(place.room != "Errors" && place.room != "", "\(payload) is declared in \(place.room)/, not a room's folder")
            #expect(place.file == payload + ".swift", "\(payload) is declared in \(place.room)/\(place.file)")
        }
        #expect(Set(cases.map(\.payload)).count == cases.count, "a room's error type is wrapped twice")
    }

    /// Each room's errors are worded in the room's own renderer, Render/ErrorMessages+ROOM.swift,
    /// and nowhere else: no other file of VaultCLI switches over a room's error to describe it.
    @Test func eachRoomIsWordedInItsRenderer() throws {
        let render = Self.sources("VaultCLI")
        for (name, payload) in try Self.topLevelCases() {
            guard let place = Self.declaration(of: payload) else { continue }
            let renderer = "VaultCLI/Render/ErrorMessages+\(place.room).swift"
            let describing = render.filter { $0.text.contains("static func describe(_ error: \(payload)") }.map(\.path)
            #expect(describing == [renderer], "VaultError.\(name) (\(payload)) is worded in \(describing), not \(renderer)")
        }
    }

    /// No `writeErr("vault: …")` outside the reporter, and no warning, note or hint worded with its
    /// `vault: ` prefix elsewhere: warnings, notes, hints and notices are written through `Diagnostics`.
    /// (A credential helper's one-line `vault: error: …; hint: …`, `HelperReport`, is its protocol's.)
    @Test func vaultLinesGoThroughTheReporter() throws {
        let reporter = "VaultCLI/Terminal/Diagnostics.swift"
        let regex = try NSRegularExpression(pattern: #"writeErr\(\s*"vault:|"vault: (warning|note|hint): [^"]"#)
        let found = (Self.sources("VaultCLI") + Self.sources("vault")).filter { $0.path != reporter }.flatMap { file in
            regex.matches(in: file.text, range: NSRange(file.text.startIndex..., in: file.text)).map { match in
                let line = file.text.utf16.prefix(match.range.location).filter { $0 == 0x0A }.count + 1
                return "\(file.path):\(line)"
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}
