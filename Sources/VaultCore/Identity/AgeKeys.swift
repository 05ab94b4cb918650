import VaultCrypto

/// An X25519 public key written as age writes it: `age1…`, Bech32 with the
/// human-readable part `age`. What a vault seals a member's keys to.
public struct AgeRecipient: Hashable, Sendable, CustomStringConvertible {
    /// The 32-byte X25519 public key.
    package let publicKey: [UInt8]

    /// The recipient of an X25519 public key.
    package init(publicKey: [UInt8]) {
        precondition(publicKey.count == X25519.keySize, "an X25519 public key is 32 bytes")
        self.publicKey = publicKey
    }

    /// Parses an `age1…` recipient. Plugin recipients (`age1NAME1…`), post-quantum ones
    /// (`age1pq1…`) and ssh keys are refused by name: vault seals to X25519 recipients only.
    /// Throws `VaultError.invalidRecipient` naming what the text is instead.
    public init(parsing text: String) throws {
        let trimmed = text.trimmingWhitespace
        if trimmed.hasPrefix("ssh-") {
            throw VaultError.invalidRecipient(trimmed, reason: .sshKey)
        }
        guard let decoded = try? Bech32.decode(Array(trimmed.utf8)) else {
            throw VaultError.invalidRecipient(trimmed, reason: .notAgeRecipient)
        }
        let hrp = String(decoding: decoded.hrp, as: UTF8.self)
        if hrp == "age1pq" { throw VaultError.invalidRecipient(trimmed, reason: .postQuantum) }
        if hrp.hasPrefix("age1") {
            throw VaultError.invalidRecipient(trimmed, reason: .plugin(name: String(hrp.dropFirst(4))))
        }
        guard hrp == "age", decoded.data.count == X25519.keySize else {
            throw VaultError.invalidRecipient(trimmed, reason: .notX25519)
        }
        publicKey = decoded.data
    }

    /// `age1…`.
    public var description: String {
        String(decoding: Bech32.encode(hrp: Array("age".utf8), data: publicKey), as: UTF8.self)
    }
}

/// An X25519 private key written as age writes it: `AGE-SECRET-KEY-1…`,
/// upper-case Bech32. Whoever holds it opens what is sealed to its recipient.
public struct AgeIdentity: Sendable {
    /// The 32-byte X25519 private key.
    package let privateKey: SecretBytes
    /// Its public key as a recipient.
    public let recipient: AgeRecipient

    private static let hrp = Array("age-secret-key-".utf8)

    /// A new identity from 32 random bytes.
    package static func generate() throws -> AgeIdentity { try AgeIdentity(privateKey: SecretBytes(random: X25519.keySize)) }

    /// The identity of a 32-byte X25519 private key.
    package init(privateKey: SecretBytes) throws {
        self.privateKey = privateKey
        recipient = AgeRecipient(publicKey: try X25519.publicKey(of: privateKey))
    }

    /// `AGE-SECRET-KEY-1…`, in locked memory.
    package var encoded: SecretBytes {
        privateKey.withUnsafeBytes { key in
            var bytes = Array(key)
            defer { for index in bytes.indices { bytes[index] = 0 } }
            var text = Bech32.encode(hrp: AgeIdentity.hrp, data: bytes, upper: true)
            defer { for index in text.indices { text[index] = 0 } }
            return SecretBytes(text)
        }
    }

    /// The identities in `text`, as age reads an identity file: one `AGE-SECRET-KEY-1…` per
    /// line; empty lines and lines starting with `#` are skipped. Plugin, post-quantum and ssh
    /// identities are refused by name, as is text with no identity in it: `VaultError.invalidIdentity`
    /// naming `source` (a path, or the variable that held the text) and the line, never its content.
    package static func parseAll(_ text: SecretBytes, source: String) throws -> [AgeIdentity] {
        try text.withUnsafeBytes { bytes in
            var identities: [AgeIdentity] = []
            for (number, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
                var line = Array(line)
                defer { for index in line.indices { line[index] = 0 } }
                while let last = line.last, last == UInt8(ascii: "\r") || last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
                    line.removeLast()
                }
                guard let first = line.first, first != UInt8(ascii: "#") else { continue }
                identities.append(try parseLine(line, number: number + 1, source: source))
            }
            guard !identities.isEmpty else { throw VaultError.invalidIdentity(source: source, line: nil, reason: .noIdentity) }
            return identities
        }
    }

    private static func parseLine(_ line: [UInt8], number: Int, source: String) throws -> AgeIdentity {
        // Compared as bytes: a String of the line's start would keep part of a key where it cannot be wiped.
        func starts(_ prefix: String) -> Bool { line.starts(with: prefix.utf8) }
        if starts("-----BEGIN") || starts("ssh-") {
            throw VaultError.invalidIdentity(source: source, line: number, reason: .sshKey)
        }
        if starts("AGE-PLUGIN-") {
            throw VaultError.invalidIdentity(source: source, line: number, reason: .plugin)
        }
        if starts("AGE-SECRET-KEY-PQ-") {
            throw VaultError.invalidIdentity(source: source, line: number, reason: .postQuantum)
        }
        guard line.allSatisfy({ !(0x61...0x7A).contains($0) }), var decoded = try? Bech32.decode(line) else {
            throw VaultError.invalidIdentity(source: source, line: number, reason: .notAgeIdentity)
        }
        defer { for index in decoded.data.indices { decoded.data[index] = 0 } }
        guard decoded.hrp == hrp, decoded.data.count == X25519.keySize else {
            throw VaultError.invalidIdentity(source: source, line: number, reason: .notX25519)
        }
        return try AgeIdentity(privateKey: SecretBytes(decoded.data))
    }
}

private extension String {
    var trimmingWhitespace: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
