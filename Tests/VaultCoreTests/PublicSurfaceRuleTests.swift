import Foundation
import Testing

/// VaultCore's public API is what docs/VAULTCORE.md's "## Reference" lists, and it stays small:
/// every `public` declaration of the library product's modules (VaultCore and what it re-exports with
/// `@_exported import`) is named there, every name there is public, and VaultCore has at most
/// `publicDeclarationsAtMost` public declarations. What only the package's own targets use is `package`.
@Suite struct PublicSurfaceRuleTests {
    static let root = TestVectorTests.packageRoot
    /// The issue's measure: lines matching `^\s*public ` in Sources/VaultCore.
    static let publicDeclarationsAtMost = 250

    /// The modules a client of the VaultCore product sees: VaultCore and each module it re-exports.
    static func exportedModules() throws -> [String] {
        let core = try PublicSurface.declarationFiles(under: "Sources/VaultCore", root: root)
        let exported = try core.flatMap { file in
            try String(contentsOfFile: root + "/" + file, encoding: .utf8).matches(of: /(?m)^@_exported import (\w+)/).map { String($0.1) }
        }
        return ["VaultCore"] + Set(exported).sorted()
    }

    static func publicDeclarations() throws -> [PublicSurface.Declaration] { try scanned.get() }

    /// Scanned once for the suite's tests.
    private static let scanned = Result {
        try exportedModules().flatMap { try PublicSurface.declarations(under: "Sources/" + $0, root: root) }
    }

    static func reference() throws -> PublicSurface.Reference {
        let text = try String(contentsOfFile: root + "/docs/VAULTCORE.md", encoding: .utf8)
        return try #require(PublicSurface.reference(in: text), "docs/VAULTCORE.md has no \"## Reference\" section")
    }

    @Test func everyPublicDeclarationIsInTheReference() throws {
        let reference = try Self.reference()
        let missing = try Self.publicDeclarations().filter { !PublicSurface.names($0, in: reference) }.map(\.described)
        #expect(
            missing.isEmpty,
            """
            public but not in docs/VAULTCORE.md's "## Reference" (document it there, or make it `package` \
            when only the package's targets use it):
            \(missing.joined(separator: "\n"))
            """)
    }

    @Test func everyNameInTheReferenceIsPublic() throws {
        let declarations = try Self.publicDeclarations()
        let types = Set(declarations.filter(\.isType).map(\.symbol))
        var unknown: [String] = []
        for (type, members) in try Self.reference() {
            if !types.contains(type) { unknown.append(type) }
            for member in members where !declarations.contains(where: { $0.owner == type && PublicSurface.names($0, in: [type: [member]]) })
            {
                unknown.append(type + "." + member)
            }
        }
        #expect(unknown.isEmpty, "docs/VAULTCORE.md's \"## Reference\" names what is not public: \(unknown.sorted())")
    }

    @Test func vaultCoreHasFewPublicDeclarations() throws {
        var count = 0
        for file in try PublicSurface.declarationFiles(under: "Sources/VaultCore", root: Self.root) {
            let text = try String(contentsOfFile: Self.root + "/" + file, encoding: .utf8)
            count += text.split(separator: "\n").filter { $0.drop(while: \.isWhitespace).hasPrefix("public ") }.count
        }
        #expect(
            count <= Self.publicDeclarationsAtMost,
            "Sources/VaultCore has \(count) public declarations (at most \(Self.publicDeclarationsAtMost)): make what only the package uses `package`"
        )
    }

    /// The scanner names members by the type they are declared in (nested types, extensions), skips
    /// comments, strings and function bodies, reads argument labels over several lines, takes `open`
    /// for `public`, and reports a public extension (whose members are public without saying so).
    @Test func theScannerNamesWhatIsPublic() {
        let text = #"""
            /// public struct InAComment {}
            public struct Outer: Sendable {
                public let `default`: Int
                let hidden: Int
                public init(value: Int,
                            other: (Int) -> Void) { self.hidden = value }
                public struct Inner {
                    public static func make(_ text: String = "{ public func no() }") -> Inner { Inner() }
                }
                func body() {
                    struct Local { public var nope = 0 }
                }
            }
            extension Outer.Inner {
                @discardableResult
                public func run(at place: [String: Int]) -> Bool { true }
            }
            public enum Errors: Error { case one(Outer) }
            public extension Errors {
                var unseen: Int { 0 }
            }
            open class Base {
                let handle = open(path)
            }
            """#
        let found = PublicSurface.declarations(in: text, file: "Sample.swift").map { $0.symbol + ($0.labels.map { "(\($0))" } ?? "") }
        #expect(
            found == [
                "Outer", "Outer.default", "Outer.init(value:other:)", "Outer.Inner", "Outer.Inner.make(_:)",
                "Outer.Inner.run(at:)", "Errors", "extension Errors", "Base"
            ])
        let reference = PublicSurface.reference(
            in: """
                # Doc

                ## Reference

                - `Outer`: what it is, beside `Other`. Members: `default`, `init(value:other:)`,
                  `Inner`
                - `Outer.Inner`: a type. Members: `run`

                ## Next
                - `Errors`
                """)
        #expect(reference == ["Outer": ["default", "init(value:other:)", "Inner"], "Outer.Inner": ["run"]])
        let declarations = PublicSurface.declarations(in: text, file: "Sample.swift")
        #expect(
            declarations.filter { !PublicSurface.names($0, in: reference ?? [:]) }.map(\.symbol) == [
                "Outer.Inner.make", "Errors", "extension Errors", "Base"
            ])
    }
}
