import Foundation
import Testing
import VaultCrypto

/// One record of a known-answer file in Vectors/: "Name = value" lines up to a blank line.
struct Vector: Sendable, CustomTestStringConvertible {
    let file: String
    let fields: [String: String]

    var testDescription: String { "\(file) case \(fields["Case"] ?? "?")" }

    /// A byte field: text in double quotes is taken as UTF-8, anything else as hex with spaces ignored.
    func bytes(_ name: String) -> [UInt8] {
        guard let raw = fields[name] else { preconditionFailure("\(testDescription): no field \(name)") }
        if raw.hasPrefix("\""), raw.hasSuffix("\""), raw.count >= 2 {
            return Array(raw.dropFirst().dropLast().utf8)
        }
        return hexBytes(raw)
    }

    /// A decimal integer field.
    func int(_ name: String) -> Int {
        guard let raw = fields[name], let value = Int(raw) else {
            preconditionFailure("\(testDescription): no integer field \(name)")
        }
        return value
    }

    subscript(_ name: String) -> String? { fields[name] }
}

enum Vectors {
    /// Parses Vectors/<name> from the test bundle; lines starting with # are comments.
    static func load(_ name: String) throws -> [Vector] {
        guard let directory = Bundle.module.url(forResource: "Vectors", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile)
        }
        let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        var records: [Vector] = []
        var current: [String: String] = [:]
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("#") { continue }
            if trimmed.isEmpty {
                if !current.isEmpty { records.append(Vector(file: name, fields: current)) }
                current = [:]
                continue
            }
            guard let equals = trimmed.firstIndex(of: "=") else { preconditionFailure("\(name): bad line \(trimmed)") }
            let key = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
            let value = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            current[key] = value
        }
        if !current.isEmpty { records.append(Vector(file: name, fields: current)) }
        return records
    }
}

/// Hex to bytes, ignoring whitespace; traps on malformed input (a broken vector file is a test bug).
func hexBytes(_ hex: String) -> [UInt8] {
    let digits = hex.filter { !$0.isWhitespace }
    precondition(digits.count % 2 == 0, "odd number of hex digits")
    var bytes: [UInt8] = []
    bytes.reserveCapacity(digits.count / 2)
    var index = digits.startIndex
    while index < digits.endIndex {
        let next = digits.index(index, offsetBy: 2)
        guard let byte = UInt8(digits[index..<next], radix: 16) else { preconditionFailure("bad hex \(digits[index..<next])") }
        bytes.append(byte)
        index = next
    }
    return bytes
}

func hexString(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}

extension CryptoError {
    var isInvalidParameters: Bool {
        if case .invalidParameters = self { return true }
        return false
    }
}
