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
        secretFile = options.value(.secretFile)
        generate = options.flag(.generate)
        generator = GeneratorOptions(options)
        print = options.flag(.print)
        password = options.value(.password)
        trimNewline = options.flag(.trimNewline)
        allowEmpty = options.flag(.allowEmpty)
    }

    /// Whether the options name a source other than stdin or the prompt.
    var hasExplicitSource: Bool { secretFile != nil || generate || password != nil }

    /// Refuses two sources at once, and the generator's options without --generate.
    func validate() throws {
        let sources = [(OptionName.secretFile, secretFile != nil), (.generate, generate), (.password, password != nil)].filter(\.1).map(\.0)
        guard sources.count <= 1 else {
            throw UsageError("--\(sources[0].long) and --\(sources[1].long) both give the secret", hint: "give the secret one way only")
        }
        if !generate, let ruleOption = generator.given.first {
            throw UsageError("--\(ruleOption.long) goes with --generate", hint: "add --generate, or drop --\(ruleOption.long)")
        }
    }
}
