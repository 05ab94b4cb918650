import VaultCore

/// Reads `--generate`'s rule from `--length`, `--charset`, `--require`,
/// `--no-ambiguous`, or `--words` and `--separator`, with a usage error
/// naming what cannot be met.
struct GeneratorOptions {
    let arguments: ParsedArguments

    /// The `--charset` names and their characters; literal characters go in brackets.
    static let charsets: [String: [UInt8]] = [
        "alnum": CharacterClass.upper.characters + CharacterClass.lower.characters + CharacterClass.digit.characters,
        "alpha": CharacterClass.upper.characters + CharacterClass.lower.characters,
        "digit": CharacterClass.digit.characters,
        "digits": CharacterClass.digit.characters,
        "hex": Array("0123456789abcdef".utf8),
        "lower": CharacterClass.lower.characters,
        "printable": Array((0x21...0x7E).map { UInt8($0) }),
        "symbol": CharacterClass.symbol.characters,
        "upper": CharacterClass.upper.characters,
    ]

    /// Every option that shapes a generated secret, which needs `--generate`.
    static let ruleOptions: [OptionName] = [.length, .charset, .require, .noAmbiguous, .words, .separator]

    /// The rule the options give (32 alphanumeric characters by default).
    func rule() throws -> GeneratorRule {
        if let wordsText = arguments.value(.words) {
            for other in arguments.given([.length, .charset, .require, .noAmbiguous]) {
                throw UsageError("--words and --\(other.long) both describe the generated secret",
                                 hint: "a passphrase takes --words and --separator; drop --\(other.long)")
            }
            guard let count = Int(wordsText), (1...64).contains(count),
                  let rule = PassphraseRule(words: count, separator: arguments.value(.separator) ?? "-") else {
                throw UsageError("invalid --words \(quoted(wordsText))", hint: "give a whole number from 1 to 64")
            }
            return .words(rule)
        }
        if arguments.value(.separator) != nil {
            throw UsageError("--separator goes with --words", hint: "add --words N for a passphrase, or drop --separator")
        }
        let lengthText = arguments.value(.length) ?? "32"
        guard let length = Int(lengthText), (1...4096).contains(length) else {
            throw UsageError("invalid --length \(quoted(lengthText))", hint: "give a whole number from 1 to 4096")
        }
        // A class --require names is drawn from too: `--require symbol` with the default
        // charset means symbols may appear, not a refusal over a --charset never given.
        let required = try requiredClasses()
        var alphabet = try characters(arguments.value(.charset) ?? "alnum") + required.flatMap(\.characters)
        if arguments.flag(.noAmbiguous) { alphabet.removeAll(where: CharacterClass.ambiguous.contains) }
        guard !alphabet.isEmpty else {
            throw UsageError("--charset leaves no character to draw from", hint: "name more characters in --charset")
        }
        guard let rule = PasswordRule(length: length, alphabet: alphabet, required: required) else {
            throw UsageError("--length \(length) is shorter than the \(required.count) classes --require names",
                             hint: "give --length \(required.count) or more")
        }
        return .characters(rule)
    }

    /// The characters a `--charset` value names: class names and bracketed
    /// literal characters, separated by commas, e.g. `lower,digit,[-_]`.
    private func characters(_ text: String) throws -> [UInt8] {
        var result: [UInt8] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            if rest.first == "[", let close = rest.dropFirst(2).firstIndex(of: "]") {
                let literal = rest[rest.index(after: rest.startIndex)..<close]
                guard literal.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else {
                    throw UsageError("--charset literal characters must be printable ASCII",
                                     hint: "write them in brackets, e.g. --charset 'alnum,[-_.]'")
                }
                result += literal.utf8
                rest = rest[rest.index(after: close)...]
            } else {
                let name = rest.prefix { $0 != "," }
                guard let members = GeneratorOptions.charsets[String(name)] else {
                    throw UsageError("unknown class \(quoted(String(name))) in --charset",
                                     hint: "use \(GeneratorOptions.charsets.keys.sorted().joined(separator: ", ")), "
                                         + "or literal characters in brackets such as [-_.]")
                }
                result += members
                rest = rest.dropFirst(name.count)
            }
            if rest.first == "," {
                rest = rest.dropFirst()
                if rest.isEmpty { throw UsageError("--charset ends with a comma", hint: "drop the last comma") }
            } else if !rest.isEmpty {
                throw UsageError("--charset has \(quoted(String(rest))) after a bracket", hint: "separate the parts with commas")
            }
        }
        return result
    }

    private func requiredClasses() throws -> [CharacterClass] {
        guard let text = arguments.value(.require) else { return [] }
        var classes: [CharacterClass] = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let requiredClass = CharacterClass(rawValue: String(name)) else {
                throw UsageError("unknown class \(quoted(String(name))) in --require",
                                 hint: "use \(CharacterClass.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            if !classes.contains(requiredClass) { classes.append(requiredClass) }
        }
        return classes
    }
}
