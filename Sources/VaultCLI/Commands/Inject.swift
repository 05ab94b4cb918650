#if canImport(Glibc)
import Glibc
#endif
import VaultCore
import VaultCrypto

/// `vault inject`'s options.
struct InjectArguments: CommandArguments {
    static let `in` = OptionSpec("in", short: "i", value: "TEMPLATE", help: "the template to fill; - or none: stdin", completion: .file)

    static let options: [OptionSpec] = [
        `in`,
        OptionSpec(
            GrantArguments.out.name, short: "o", value: "FILE", help: "write to FILE (mode 0600) instead of stdout; - is stdout",
            completion: .file),
        RunArguments.referenceGroup
    ]

    /// --in: the template; stdin when not given or -.
    var input: String?
    /// --out: the file to write; stdout when not given or -.
    var output: String?
    /// --group as given: the group of references that name none.
    var group: String?

    init(_ options: OptionReader) {
        input = options.value(InjectArguments.in)
        output = options.value(GrantArguments.out)
        group = options.value(ItemSelection.group)
    }
}

/// `vault inject`: copies a template with its `{{ vault://… }}` references
/// replaced by their secrets, to stdout or atomically to a 0600 file.
enum InjectCommand {
    static func run(_ arguments: InjectArguments, _ invocation: Invocation) throws {
        let input = arguments.input ?? "-"
        if input == "-", arguments.input == nil, invocation.terminal.stdinIsTTY {
            throw UsageError("no template given", hint: "name it with -i TEMPLATE, or pipe it in: 'vault inject < TEMPLATE'")
        }
        let template = try LoadedTemplate(path: input, bytes: input == "-" ? invocation.terminal.readAllInput() : nil)
        let uses = template.referenceUses
        let output = arguments.output.flatMap { $0 == "-" ? nil : $0 }
        let secrets = try ReferenceResolver(invocation, group: arguments.group).resolve(
            uses, action: output == nil ? "nothing was printed" : "nothing was written")
        let rendered = template.rendered(with: secrets)
        if let output {
            // The file writer takes an array: the copy lives only for the write, then is wiped.
            var bytes = rendered.copyBytes()
            defer { bytes.withUnsafeMutableBytes { if let base = $0.baseAddress { memset(base, 0, $0.count) } } }
            try PlainFile.writePrivately(bytes, to: output)
            invocation.terminal.say("wrote \(quoted(output)) (mode 0600) with \(counted(uses.count, "secret"))")
        } else {
            rendered.withUnsafeBytes { invocation.terminal.writeOut($0) }
        }
    }
}
