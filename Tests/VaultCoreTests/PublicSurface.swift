import Foundation

/// The public declarations of Swift sources and the "## Reference" list of docs/VAULTCORE.md, read
/// from the text (no compiler): what `PublicSurfaceRuleTests` compares.
enum PublicSurface {
    /// A declaration marked `public`: a type (or typealias) or a member, named by its owner.
    struct Declaration: Equatable {
        let file: String
        let line: Int
        /// The qualified name of the type it is declared in (an extension's type), "" at file level.
        let owner: String
        /// Its base name: `add`, `init`, `subscript`, `==`, a type's name.
        let name: String
        let isType: Bool
        /// The argument labels of a func, init or subscript (`location:keys:`), nil for others.
        let labels: String?

        var symbol: String { owner.isEmpty ? name : owner + "." + name }
        var described: String { "\(file):\(line): \(symbol)" + (labels.map { "(\($0))" } ?? "") }
    }

    /// The reference: each bullet's type and the members it names (`add`, `init(path:)`).
    typealias Reference = [String: [String]]

    // MARK: Sources

    /// Every `public` declaration of the Swift files under `directory`, paths relative to `root`.
    static func declarations(under directory: String, root: String) throws -> [Declaration] {
        try declarationFiles(under: directory, root: root).flatMap { path in
            declarations(in: try String(contentsOfFile: root + "/" + path, encoding: .utf8), file: path)
        }
    }

    /// The Swift files under `directory` (relative to `root`), as paths relative to `root`.
    static func declarationFiles(under directory: String, root: String) throws -> [String] {
        let files = FileManager.default.enumerator(atPath: root + "/" + directory)?.allObjects as? [String] ?? []
        return files.filter { $0.hasSuffix(".swift") }.sorted().map { directory + "/" + $0 }
    }

    /// The `public` declarations of one file's text.
    static func declarations(in text: String, file: String) -> [Declaration] {
        let lines = text.components(separatedBy: "\n")
        var state = LexState()
        var scopes: [String?] = []  // per open brace: the type it opens, nil for a body
        var pending: String?
        var found: [Declaration] = []
        for (index, line) in lines.enumerated() {
            let code = codeOnly(line, &state)
            let stripped = withoutAttributes(code)
            let owner = scopes.last ?? ""
            if let owner, isPublic(stripped),
                let named = name(of: stripped)
            {
                var labels: String?
                if named.hasLabels {
                    var text = stripped
                    var ahead = state
                    var next = index + 1
                    while next < lines.count, next <= index + 20, !text.contains("(") || text.count(of: "(") > text.count(of: ")") {
                        text += " " + codeOnly(lines[next], &ahead)
                        next += 1
                    }
                    let start =
                        named.name == "init" || named.name == "subscript"
                        ? text.range(of: named.name)!.upperBound : text.range(of: "func ")!.upperBound
                    labels = argumentLabels(String(text[start...]))
                }
                found.append(
                    Declaration(
                        file: file, line: index + 1, owner: owner, name: named.name,
                        isType: named.isType, labels: labels))
            }
            if let header = typeHeader(stripped) {
                if header.kind == "extension" {
                    pending = header.name
                } else if let owner {
                    pending = owner.isEmpty ? header.name : owner + "." + header.name
                } else {
                    pending = nil
                }
            }
            for character in code {
                if character == "{" {
                    scopes.append(pending)
                    pending = nil
                } else if character == "}", !scopes.isEmpty {
                    scopes.removeLast()
                }
            }
        }
        return found
    }

    struct LexState {
        var inComment = false
        var inString = false
    }

    /// The line without comments and string contents (each string becomes `""`).
    static func codeOnly(_ line: String, _ state: inout LexState) -> String {
        let bytes = Array(line.utf8)
        var out: [UInt8] = []
        var i = 0
        func at(_ a: UInt8, _ b: UInt8, _ c: UInt8? = nil) -> Bool {
            i + 1 < bytes.count && bytes[i] == a && bytes[i + 1] == b && (c == nil || (i + 2 < bytes.count && bytes[i + 2] == c))
        }
        let slash = UInt8(ascii: "/"), star = UInt8(ascii: "*"), quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        while i < bytes.count {
            if state.inComment {
                while i < bytes.count, !at(star, slash) { i += 1 }
                guard i < bytes.count else { break }
                state.inComment = false
                i += 2
            } else if state.inString {
                while i < bytes.count, !at(quote, quote, quote) { i += 1 }
                guard i < bytes.count else { break }
                state.inString = false
                i += 3
            } else if at(slash, slash) {
                break
            } else if at(slash, star) {
                state.inComment = true
                i += 2
            } else if at(quote, quote, quote) {
                state.inString = true
                i += 3
            } else if bytes[i] == quote {
                i += 1
                while i < bytes.count, bytes[i] != quote { i += bytes[i] == backslash ? 2 : 1 }
                out += [quote, quote]
                i += 1
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func withoutAttributes(_ code: String) -> String {
        guard code.contains("@") else { return code }
        return code.replacingOccurrences(of: #"^\s*(@[\w.]+(\([^)]*\))?\s*)+"#, with: "", options: .regularExpression)
    }

    /// The kind and name a type's header opens a body for (`extension Vault.Configuration` → Vault.Configuration).
    static func typeHeader(_ code: String) -> (kind: String, name: String)? {
        let keywords = ["struct ", "class ", "enum ", "protocol ", "extension ", "actor "]
        guard keywords.contains(where: code.contains) else { return nil }
        if code.range(of: #"\bclass\s+(func|var|let|subscript)\b"#, options: .regularExpression) != nil
            || code.range(of: #"\b(func|var|let|case)\b.*\b(struct|class|enum|protocol|extension|actor)\b"#, options: .regularExpression)
                != nil
        {
            return nil
        }
        guard let match = code.firstMatch(of: /\b(struct|class|enum|protocol|extension|actor)\s+([\w.]+)/) else { return nil }
        return (String(match.1), String(match.2))
    }

    /// Whether a line's code (attributes stripped) begins with `public`, or with `open` before a declaration.
    static func isPublic(_ code: String) -> Bool {
        let trimmed = code.drop(while: \.isWhitespace)
        return trimmed.hasPrefix("public ")
            || trimmed.firstMatch(of: /^open\s+(class|func|var|let|subscript|override|static|final|extension)\b/) != nil
    }

    /// The name a declaration's code declares, nil when it declares none. A public extension is named
    /// `extension T` (never listed: its members would be public without a name of their own).
    static func name(of code: String) -> (name: String, isType: Bool, hasLabels: Bool)? {
        if let match = code.firstMatch(of: /^\s*(public|open)\s+extension\s+([\w.]+)/) { return ("extension " + match.2, false, false) }
        if let match = code.firstMatch(of: /\bfunc\s+([^\s(<]+)/) { return (String(match.1).trimmingCharacters(in: ["`"]), false, true) }
        if code.firstMatch(of: /\binit\b[?!]?\s*[(<]/) != nil { return ("init", false, true) }
        if code.firstMatch(of: /\bsubscript\b/) != nil { return ("subscript", false, true) }
        if code.firstMatch(of: /\bclass\s+(func|var|let|subscript)\b/) == nil,
            let match = code.firstMatch(of: /\b(struct|class|enum|protocol|actor|typealias|associatedtype)\s+(\w+)/)
        {
            return (String(match.2), true, false)
        }
        if let match = code.firstMatch(of: /\b(var|let)\s+`?(\w+)`?/) { return (String(match.2), false, false) }
        return nil
    }

    /// The argument labels of the first parameter list in `text` (`(_ a: A, from b: B)` → `_:from:`).
    static func argumentLabels(_ text: String) -> String? {
        guard let open = text.firstIndex(of: "(") else { return nil }
        var depth = 0
        var parameters: [String] = []
        var current = ""
        var index = open
        while index < text.endIndex {
            let character = text[index]
            if text[index...].hasPrefix("->") {
                current += "->"
                index = text.index(index, offsetBy: 2)
                continue
            }
            if "([<".contains(character) {
                depth += 1
                if depth > 1 { current.append(character) }
            } else if ")]>".contains(character) {
                depth -= 1
                if depth == 0 { break }
                current.append(character)
            } else if character == ",", depth == 1 {
                parameters.append(current)
                current = ""
            } else {
                current.append(character)
            }
            index = text.index(after: index)
        }
        if !current.trimmingCharacters(in: .whitespaces).isEmpty { parameters.append(current) }
        return parameters.compactMap { $0.split(separator: ":", maxSplits: 1).first?.split(separator: " ").first }
            .map { $0 + ":" }.joined()
    }

    // MARK: The reference

    /// The "## Reference" section of a markdown text: each bullet's first code span is a type, and the
    /// code spans after "Members:" (on the bullet's line or its indented continuation lines) its members.
    static func reference(in markdown: String) -> Reference? {
        guard let section = markdown.components(separatedBy: "\n## Reference\n").dropFirst().first else { return nil }
        let body = section.components(separatedBy: "\n## ").first ?? section
        var bullets: [String?] = []
        for line in body.components(separatedBy: "\n") {
            if line.hasPrefix("- ") {
                bullets.append(line)
            } else if line.hasPrefix("  "), let bullet = bullets.last ?? nil {
                bullets[bullets.count - 1] = bullet + " " + line.trimmingCharacters(in: .whitespaces)
            } else {
                bullets.append(nil)
            }
        }
        var reference: Reference = [:]
        for case let bullet? in bullets {
            guard let type = codeSpans(bullet).first else { continue }
            let members = bullet.components(separatedBy: "Members:").dropFirst().first.map(codeSpans) ?? []
            reference[type, default: []] += members
        }
        return reference
    }

    static func codeSpans(_ text: String) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// Whether the reference names `declaration`: a type with a bullet of its own or listed among its
    /// owner's members; a member listed under its owner, by base name (every overload) or with its labels.
    static func names(_ declaration: Declaration, in reference: Reference) -> Bool {
        if declaration.isType, reference[declaration.symbol] != nil { return true }
        return (reference[declaration.owner] ?? []).contains { token in
            let base = token.split(separator: "(", maxSplits: 1).first.map(String.init) ?? token
            guard base == declaration.name else { return false }
            guard token.contains("("), let labels = declaration.labels else { return true }
            return token == base + "(" + labels + ")"
        }
    }
}

extension String {
    fileprivate func count(of character: Character) -> Int { filter { $0 == character }.count }
}
