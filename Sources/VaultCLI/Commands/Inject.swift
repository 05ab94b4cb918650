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
        guard let input = arguments.value("in") else {
            throw UsageError("missing --in", hint: "name the template with -i TEMPLATE (- for stdin)")
        }
        let template = input == "-" ? invocation.terminal.readAllInput() : try PlainFile.read(input)
        let segments: [TemplateSegment]
        do {
            segments = try Template.parse(template)
        } catch {
            throw CommandFailure(.usage, "\(input):\(error.line): \(error.problem)", hint: SecretReferenceError.syntaxHint)
        }
        let uses = segments.compactMap { segment -> ReferenceUse? in
            guard case .reference(let reference, let line) = segment else { return nil }
            return ReferenceUse(origin: "\(input):\(line)", text: reference.description)
        }
        let output = arguments.value("out")
        let secrets = try ReferenceResolver(invocation).resolve(uses, action: output == nil ? "nothing was printed" : "nothing was written")
        var filled = SecretBytesBuilder(capacity: template.count)
        for segment in segments {
            switch segment {
            case .text(let text): text.withUnsafeBytes { filled.append($0) }
            case .reference(let reference, _): filled.append(secrets[reference]!)
            }
        }
        let result = filled.finish()
        if let output {
            // The file writer takes an array: the copy lives only for the write, then is wiped.
            var bytes = result.copyBytes()
            defer { bytes.withUnsafeMutableBytes { if let base = $0.baseAddress { memset(base, 0, $0.count) } } }
            try PlainFile.writePrivately(bytes, to: output)
            invocation.terminal.writeErr("vault: wrote \(quoted(output)) (mode 0600) with \(counted(uses.count, "secret"))\n")
        } else {
            result.withUnsafeBytes { invocation.terminal.writeOut($0) }
        }
    }
}
