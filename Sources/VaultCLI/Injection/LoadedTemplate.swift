import VaultCore
import VaultCrypto

/// A template of `{{ vault://… }}` references read and parsed, for `vault
/// inject` and `vault run --mount PATH=TEMPLATE`.
struct LoadedTemplate {
    /// The name the template is known by in messages ("-" for stdin).
    var name: String
    var segments: [TemplateSegment]

    /// Reads and parses the template at `path`; a syntax error is a usage error naming its line.
    init(path: String, bytes: [UInt8]? = nil) throws {
        name = path == "-" ? "stdin" : path
        let template = try bytes ?? PlainFile.read(path)
        do {
            segments = try Template.parse(template)
        } catch {
            throw CommandFailure(.usage, "\(name):\(error.line): \(error.problem)", hint: SecretReferenceError.syntaxHint)
        }
    }

    /// Each reference with the line it is on, to resolve.
    var referenceUses: [ReferenceUse] {
        segments.compactMap { segment -> ReferenceUse? in
            guard case .reference(let reference, let line) = segment else { return nil }
            return ReferenceUse(origin: "\(name):\(line)", text: reference.description)
        }
    }

    /// The template with every reference replaced by its secret (all must be in `secrets`).
    func rendered(with secrets: [SourceReference: SecretBytes]) -> SecretBytes {
        // Built in locked memory: the rendering holds every secret of the template.
        var filled = SecretBytesBuilder()
        for segment in segments {
            switch segment {
            case .text(let text): text.withUnsafeBytes { filled.append($0) }
            case .reference(let reference, _): filled.append(secrets[reference]!)
            }
        }
        return filled.finish()
    }
}
