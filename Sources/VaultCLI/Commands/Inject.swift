import VaultCore

/// `vault inject`: copies a template with its `{{ vault://… }}` references
/// replaced by their secrets, to stdout or atomically to a 0600 file.
enum InjectCommand {
    static func run(_ invocation: Invocation) throws {
        let arguments = invocation.arguments
        let input = arguments.value("in") ?? "-"
        if input == "-", arguments.value("in") == nil, invocation.terminal.stdinIsTTY {
            throw UsageError("no template given", hint: "name it with -i TEMPLATE, or pipe it in: 'vault inject < TEMPLATE'")
        }
        let template = input == "-" ? invocation.terminal.readAllInput() : try PlainFile.read(input)
        let source = input == "-" ? "stdin" : input
        let segments: [TemplateSegment]
        do {
            segments = try Template.parse(template)
        } catch {
            throw CommandFailure(.usage, "\(source):\(error.line): \(error.problem)", hint: SecretReferenceError.syntaxHint)
        }
        let uses = segments.compactMap { segment -> ReferenceUse? in
            guard case .reference(let reference, let line) = segment else { return nil }
            return ReferenceUse(origin: "\(source):\(line)", text: reference.description)
        }
        let output = arguments.value("out").flatMap { $0 == "-" ? nil : $0 }
        let secrets = try ReferenceResolver(invocation).resolve(uses, action: output == nil ? "nothing was printed" : "nothing was written")
        var bytes: [UInt8] = []
        defer { for index in bytes.indices { bytes[index] = 0 } }
        for segment in segments {
            switch segment {
            case .text(let text): bytes += text
            case .reference(let reference, _): bytes += secrets[reference]!.copyBytes()
            }
        }
        if let output {
            try PlainFile.writePrivately(bytes, to: output)
            invocation.terminal.say("wrote \(quoted(output)) (mode 0600) with \(counted(uses.count, "secret"))")
        } else {
            bytes.withUnsafeBytes { invocation.terminal.writeOut($0) }
        }
    }
}
