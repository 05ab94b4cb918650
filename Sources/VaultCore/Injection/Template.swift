/// One piece of a template: bytes copied as they are, or a reference replaced by its secret.
package enum TemplateSegment: Equatable, Sendable {
    /// Bytes copied to the output as they are.
    case text([UInt8])
    /// A reference replaced by its item's secret; `line` is where it starts, from 1.
    case reference(SourceReference, line: Int)
}

/// A template that cannot be read: an unclosed `{{ vault://` or a bad reference.
package struct TemplateError: Error, Equatable, Sendable {
    /// The line the problem is on, from 1.
    package var line: Int
    /// What is wrong (the command line words it).
    package var reason: Reason

    /// What can be wrong with a template.
    package enum Reason: Equatable, Sendable {
        /// `{{ vault://` (or `{{ openbao://`) with no `}}` after it.
        case unclosedReference
        /// A reference (its text) that does not parse.
        case badReference(String, SecretReferenceError)
    }
}

/// The template syntax of `vault inject`: `{{ vault://[GROUP/]SERVICE/ACCOUNT }}` or
/// `{{ openbao://[MOUNT/]PATH#FIELD }}` (spaces inside the braces optional) is replaced by the
/// secret; every other byte, including `{{` not followed by a scheme, is copied unchanged.
package enum Template {
    /// The template as literal bytes and references, in order.
    package static func parse(_ bytes: [UInt8]) throws(TemplateError) -> [TemplateSegment] {
        var segments: [TemplateSegment] = []
        var literalStart = 0
        var index = 0
        var line = 1
        let schemes = [Array(SecretReference.scheme.utf8), Array(OpenBaoReference.scheme.utf8)]
        while index < bytes.count {
            if bytes[index] == 0x0A { line += 1 }
            guard bytes[index] == UInt8(ascii: "{"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "{") else {
                index += 1
                continue
            }
            var start = index + 2
            while start < bytes.count, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
            guard schemes.contains(where: { bytes[start...].starts(with: $0) }) else {
                index += 1
                continue
            }
            guard let close = firstClosingBraces(in: bytes, from: start) else {
                throw TemplateError(line: line, reason: .unclosedReference)
            }
            var end = close
            while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
            let text = String(decoding: bytes[start..<end], as: UTF8.self)
            let reference: SourceReference
            do {
                reference = try SourceReference(parsing: text)
            } catch {
                throw TemplateError(line: line, reason: .badReference(text, error))
            }
            if literalStart < index { segments.append(.text(Array(bytes[literalStart..<index]))) }
            segments.append(.reference(reference, line: line))
            index = close + 2
            literalStart = index
        }
        if literalStart < bytes.count { segments.append(.text(Array(bytes[literalStart...]))) }
        return segments
    }

    /// The index of the first "}}" at or after `start` on the same line.
    private static func firstClosingBraces(in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + 1 < bytes.count, bytes[index] != 0x0A {
            if bytes[index] == UInt8(ascii: "}"), bytes[index + 1] == UInt8(ascii: "}") { return index }
            index += 1
        }
        return nil
    }
}
