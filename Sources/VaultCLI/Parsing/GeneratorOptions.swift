import VaultCore

/// Reads `--generate`'s rule from `--length`, `--charset`, `--require`,
/// `--no-ambiguous`, or `--words` and `--separator`, with a usage error
/// naming what cannot be met.
struct GeneratorOptions: Sendable {
    /// --length: from 1 to 4096 characters; nil when not given (32).
    var length: Converted<Int>?
    var charset: String?
    /// --require: the classes a generated secret holds one of each.
    var require: String?
    var noAmbiguous: Bool
    /// --words: a passphrase of this many words (1 to 64) instead.
    var words: Converted<Int>?
    var separator: String?

    init(_ options: OptionReader) {
        length = options.value(Self.length).map { text in
            Converted(
                text, { Int($0).flatMap { (1...4096).contains($0) ? $0 : nil } },
                else: UsageError("invalid --length \(quoted(text))", hint: "give a whole number from 1 to 4096"))
        }
        charset = options.value(Self.charset)
        require = options.value(Self.require)
        noAmbiguous = options.flag(Self.noAmbiguous)
        words = options.value(Self.words).map { text in
            Converted(
                text, { Int($0).flatMap { (1...64).contains($0) ? $0 : nil } },
                else: UsageError("invalid --words \(quoted(text))", hint: "give a whole number from 1 to 64"))
        }
        separator = options.value(Self.separator)
    }

    /// The options given that shape a generated secret (and need `--generate`), in the table's order.
    var given: [OptionSpec] {
        [
            (Self.length, length != nil), (Self.charset, charset != nil), (Self.require, require != nil), (Self.noAmbiguous, noAmbiguous),
            (Self.words, words != nil), (Self.separator, separator != nil)
        ].filter(\.1).map(\.0)
    }

    static let length = OptionSpec("length", value: "N", help: "length of a generated secret", default: "32")
    static let charset = OptionSpec(
        "charset", value: "SET",
        help: "characters of a generated secret: classes (alnum, alpha, digit, hex, lower, printable, symbol, upper) "
            + "and literal characters in brackets, separated by commas, e.g. 'alnum,[-_.]'",
        default: "alnum")
    static let require = OptionSpec(
        "require", value: "CLASSES",
        help: "a generated secret holds at least one character of each class named (upper, lower, digit, symbol), "
            + "which is drawn from too, whatever --charset says")
    static let noAmbiguous = OptionSpec("no-ambiguous", help: "leave out the characters 0 O 1 l I | from a generated secret")
    static let words = OptionSpec(
        "words", value: "N", help: "generate a passphrase of N words from the EFF large word list (7 776 words) instead")
    static let separator = OptionSpec("separator", value: "TEXT", help: "what goes between the words of a passphrase", default: "-")

    /// The rule of a generated secret, in the order help shows it.
    static let options = [length, charset, require, noAmbiguous, words, separator]

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
        "upper": CharacterClass.upper.characters
    ]

    /// The rule the options give (32 alphanumeric characters by default).
    func rule() throws -> GeneratorRule {
        if let words {
            for other in given where other.long != Self.words.long && other.long != Self.separator.long {
                throw UsageError(
                    "--words and --\(other.long) both describe the generated secret",
                    hint: "a passphrase takes --words and --separator; drop --\(other.long)")
            }
            // --words is from 1, so the rule is made.
            return .words(PassphraseRule(words: try words.get(), separator: separator ?? "-")!)
        }
        if separator != nil {
            throw UsageError("--separator goes with --words", hint: "add --words N for a passphrase, or drop --separator")
        }
        let length = try length?.get() ?? 32
        // A class --require names is drawn from too: `--require symbol` with the default
        // charset means symbols may appear, not a refusal over a --charset never given.
        let required = try requiredClasses()
        var alphabet = try characters(charset ?? "alnum") + required.flatMap(\.characters)
        if noAmbiguous { alphabet.removeAll(where: CharacterClass.ambiguous.contains) }
        guard !alphabet.isEmpty else {
            throw UsageError("--charset leaves no character to draw from", hint: "name more characters in --charset")
        }
        guard let rule = PasswordRule(length: length, alphabet: alphabet, required: required) else {
            throw UsageError(
                "--length \(length) is shorter than the \(required.count) classes --require names",
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
                    throw UsageError(
                        "--charset literal characters must be printable ASCII",
                        hint: "write them in brackets, e.g. --charset 'alnum,[-_.]'")
                }
                result += literal.utf8
                rest = rest[rest.index(after: close)...]
            } else {
                let name = rest.prefix { $0 != "," }
                guard let members = GeneratorOptions.charsets[String(name)] else {
                    throw UsageError(
                        "unknown class \(quoted(String(name))) in --charset",
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
        guard let text = require else { return [] }
        var classes: [CharacterClass] = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let requiredClass = CharacterClass(rawValue: String(name)) else {
                throw UsageError(
                    "unknown class \(quoted(String(name))) in --require",
                    hint: "use \(CharacterClass.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            if !classes.contains(requiredClass) { classes.append(requiredClass) }
        }
        return classes
    }
}
