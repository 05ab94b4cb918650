/// Where `add` and `update` take a new secret from, and how a generated one
/// is made: the table's `secretSourceOptions` as typed values.
struct SecretSourceOptions: Sendable {
    /// --secret-file: read the secret from this file.
    var secretFile: String?
    /// --generate: make a random one.
    var generate: Bool
    /// How --generate makes it.
    var generator: GeneratorOptions
    /// --print: show a generated secret once.
    var print: Bool
    /// -w: the secret itself.
    var password: String?
    var trimNewline: Bool
    var allowEmpty: Bool

    init(_ options: OptionReader) {
        secretFile = options.value(Self.secretFile)
        generate = options.flag(Self.generate)
        generator = GeneratorOptions(options)
        print = options.flag(Self.print)
        password = options.value(Self.password)
        trimNewline = options.flag(Self.trimNewline)
        allowEmpty = options.flag(Self.allowEmpty)
    }

    /// Whether the options name a source other than stdin or the prompt.
    var hasExplicitSource: Bool { secretFile != nil || generate || password != nil }

    /// Refuses two sources at once, and the generator's options without --generate.
    func validate() throws {
        let sources = [(Self.secretFile, secretFile != nil), (Self.generate, generate), (Self.password, password != nil)].filter(\.1).map(
            \.0)
        guard sources.count <= 1 else {
            throw UsageError("--\(sources[0].long) and --\(sources[1].long) both give the secret", hint: "give the secret one way only")
        }
        if !generate, let ruleOption = generator.given.first {
            throw UsageError("--\(ruleOption.long) goes with --generate", hint: "add --generate, or drop --\(ruleOption.long)")
        }
    }
}

// Where a new secret comes from, declared once; without any of these it is read from stdin, or
// from a no-echo prompt on a terminal.
extension SecretSourceOptions {
    static let secretFile = OptionSpec("secret-file", value: "FILE", help: "read the secret from FILE", completion: .file)
    static let generate = OptionSpec(
        "generate", help: "generate a random secret: 32 letters and digits unless the options below say otherwise")
    static let print = OptionSpec("print", help: "show a generated secret once, on a terminal only")
    static let password = OptionSpec(
        "password", short: "w", value: "VALUE",
        help: "the secret itself; visible to other users in ps, prefer stdin")
    static let trimNewline = OptionSpec("trim-newline", help: "drop one trailing newline from the secret, as echo adds")
    static let allowEmpty = OptionSpec("allow-empty", help: "store an empty secret instead of refusing it")

    /// The sources and the generator's rule, in the order help shows them.
    static let options: [OptionSpec] = [secretFile, generate] + GeneratorOptions.options + [print, password, trimNewline, allowEmpty]
}
