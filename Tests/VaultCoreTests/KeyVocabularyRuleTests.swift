import Foundation
import Testing

/// One vocabulary for keys and who holds them: a role is told from the keys only in
/// `Unlock/KeyHolder.swift` (the holder and the key ring's questions), and the Ed25519 signing and
/// trust keys are typed (`Keys/SignatureKeys.swift`), bytes only at the format's edge (`File/`,
/// VaultCrypto). Read from the sources, so the rule and the code cannot drift apart.
@Suite struct KeyVocabularyRuleTests {
    static let root = TestVectorTests.packageRoot
    static let holderFile = "Sources/VaultCore/Unlock/KeyHolder.swift"
    static let signatureKeysFile = "Sources/VaultCore/Keys/SignatureKeys.swift"
    /// Where keys are bytes: the file layout and the primitives.
    static let formatEdge = ["Sources/VaultCore/File/", "Sources/VaultCrypto/"]

    /// Every Swift file under Sources, relative to the package root, with its text (comments kept out line by line).
    static func sources() throws -> [(path: String, code: [Substring])] {
        let sources = root + "/Sources"
        let files = try #require(FileManager.default.enumerator(atPath: sources)?.allObjects as? [String])
        return try files.filter { $0.hasSuffix(".swift") }.sorted().map { file in
            let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
            let code = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
                let trimmed = line.drop(while: { $0 == " " })
                return trimmed.hasPrefix("//") ? "" : line
            }
            return ("Sources/" + file, code)
        }
    }

    /// A role test: asking whether a ring holds the master, header MAC or wrap key (`keys.headerMACKey != nil`).
    static func testsRole(_ line: Substring) -> Bool {
        line.range(of: #"\b(masterKey|headerMACKey|wrapKey|trustWrapKey)\s*[!=]=\s*nil"#, options: .regularExpression) != nil
    }

    /// The parameters of `func` and `init` declarations (from the keyword to the body's `{`) named for
    /// a signing or trust key and typed as bytes: `[UInt8]`, `Data`, `SecretBytes` or `ArraySlice<UInt8>`.
    static func bytesTypedSignatureKeyParameters(_ code: [Substring]) -> [String] {
        let text = code.joined(separator: "\n")
        let declaration = try! NSRegularExpression(pattern: #"\b(func\s+\w+|init)\s*(<[^>]*>)?\s*\(([^{]*)"#)
        let parameter = try! NSRegularExpression(
            pattern: #"(?i)\b\w*(signing|trust)\w*\s*:\s*(inout\s+)?(\[UInt8\]|Data|SecretBytes|ArraySlice<UInt8>)(?!\w)"#)
        var found: [String] = []
        let whole = NSRange(text.startIndex..., in: text)
        for match in declaration.matches(in: text, range: whole) {
            let parameters = match.range(at: 3)
            for hit in parameter.matches(in: text, range: parameters) {
                found.append(String(text[Range(hit.range, in: text)!]))
            }
        }
        return found
    }

    @Test func rolesAreToldOnlyByTheHolder() throws {
        var outside: [String] = []
        for (path, code) in try Self.sources() where path != Self.holderFile {
            for (number, line) in code.enumerated() where Self.testsRole(line) { outside.append("\(path):\(number + 1)") }
        }
        #expect(
            outside.isEmpty,
            "a role told by which keys a ring holds outside \(Self.holderFile) (ask KeyHolder or the ring's named question): \(outside)")
    }

    @Test func signingAndTrustKeysAreNotBytesInSignatures() throws {
        var outside: [String] = []
        for (path, code) in try Self.sources() where !Self.formatEdge.contains(where: path.hasPrefix) {
            outside += Self.bytesTypedSignatureKeyParameters(code).map { "\(path): \($0)" }
        }
        #expect(
            outside.isEmpty,
            "a signing or trust key passed as bytes outside the format edge (use SigningKey, TrustKey and their public keys): \(outside)")
    }

    @Test func ed25519IsCalledOnlyThroughTheTypedKeys() throws {
        var outside: [String] = []
        for (path, code) in try Self.sources() where path != Self.signatureKeysFile && !path.hasPrefix("Sources/VaultCrypto/") {
            for (number, line) in code.enumerated()
            where line.range(of: #"Ed25519\.(sign|publicKey|isValid)\b"#, options: .regularExpression) != nil {
                outside.append("\(path):\(number + 1)")
            }
        }
        #expect(outside.isEmpty, "Ed25519 called outside \(Self.signatureKeysFile): \(outside)")
    }

    /// The scans find what they look for (so a clean run means something).
    @Test func theScansSeeViolations() {
        #expect(Self.testsRole("        let isOwner = keys.headerMACKey != nil"))
        #expect(Self.testsRole("guard vault.keys.masterKey == nil else {"))
        #expect(!Self.testsRole("guard let masterKey = keys.masterKey else {"))
        #expect(
            Self.bytesTypedSignatureKeyParameters(["static func seal(_ trustKey: SecretBytes,", "  under key: WrapKey) {"]) == [
                "trustKey: SecretBytes"
            ])
        #expect(Self.bytesTypedSignatureKeyParameters(["init(signingPublicKey: [UInt8]) {"]) == ["signingPublicKey: [UInt8]"])
        #expect(Self.bytesTypedSignatureKeyParameters(["func sign(_ key: SigningKey, message: [UInt8]) {"]).isEmpty)
    }
}
