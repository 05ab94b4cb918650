#if canImport(Glibc)
import Glibc
#endif
import VaultCore
import VaultCrypto

/// `vault inject`: copies a template with its `{{ vault://… }}` references
/// replaced by their secrets, to stdout or atomically to a 0600 file.
enum InjectCommand {
    static func run(_ invocation: Invocation) throws {
        let arguments = invocation.arguments
        let input = arguments.value(.in) ?? "-"
        if input == "-", arguments.value(.in) == nil, invocation.terminal.stdinIsTTY {
            throw UsageError("no template given", hint: "name it with -i TEMPLATE, or pipe it in: 'vault inject < TEMPLATE'")
        }
        let template = try LoadedTemplate(path: input, bytes: input == "-" ? invocation.terminal.readAllInput() : nil)
        let uses = template.referenceUses
        let output = arguments.value(.out).flatMap { $0 == "-" ? nil : $0 }
        let secrets = try ReferenceResolver(invocation).resolve(uses, action: output == nil ? "nothing was printed" : "nothing was written")
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
