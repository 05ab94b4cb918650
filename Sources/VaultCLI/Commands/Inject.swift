import VaultCore

/// `vault inject`: copies a template with its `{{ vault://… }}` references
/// replaced by their secrets, to stdout or atomically to a 0600 file.
enum InjectCommand {
    static func run(_ invocation: Invocation) throws {
        let arguments = invocation.arguments
        guard let input = arguments.value("in") else {
            throw UsageError("missing --in", hint: "name the template with -i TEMPLATE (- for stdin)")
        }
        let template = try LoadedTemplate(path: input, bytes: input == "-" ? invocation.terminal.readAllInput() : nil)
        let uses = template.referenceUses
        let output = arguments.value("out")
        let secrets = try ReferenceResolver(invocation).resolve(uses, action: output == nil ? "nothing was printed" : "nothing was written")
        let rendered = template.rendered(with: secrets)
        if let output {
            var bytes = rendered.copyBytes()
            defer { for index in bytes.indices { bytes[index] = 0 } }
            try PlainFile.writePrivately(bytes, to: output)
            invocation.terminal.writeErr("vault: wrote \(quoted(output)) (mode 0600) with \(counted(uses.count, "secret"))\n")
        } else {
            rendered.withUnsafeBytes { invocation.terminal.writeOut($0) }
        }
    }
}
