import VaultCrypto

/// An item's one-time code secret: an `otpauth://totp/…` or `otpauth://hotp/…`
/// URI (Google Authenticator's key-URI format), or a bare Base32 seed, which
/// is TOTP with SHA-1, 6 digits and a 30-second period. Parsed from the
/// secret's bytes without turning them into a `String`.
package struct OneTimeCodeSecret {
    /// Time-based (RFC 6238) with its period in seconds, or counter-based
    /// (RFC 4226) with the counter of the next code.
    package enum Kind: Equatable, Sendable {
        /// RFC 6238: a code per `period` seconds since the Unix epoch.
        case totp(period: Int)
        /// RFC 4226: the code of `counter`, the next one to use.
        case hotp(counter: UInt64)
    }

    /// TOTP with its period, or HOTP with its counter.
    package private(set) var kind: Kind
    /// The hash of the HMAC: SHA1 unless the URI's algorithm names another.
    package let digest: HMACDigest
    /// How many digits a code has: 6, 7 or 8.
    package let digits: Int
    /// The shared key, decoded from Base32.
    package let key: SecretBytes
    /// The URI's parameters as written (nil for a bare seed), so a new counter
    /// changes nothing else.
    private let uri: (head: [UInt8], parameters: [(name: String, value: [UInt8])])?

    /// The shortest key accepted: 80 bits (16 Base32 characters), the least
    /// that sites hand out; it also keeps a short word from passing for a seed.
    package static let minimumKeyBytes = 10

    /// Parses an item's secret; throws `OneTimeCodeError` naming what is wrong,
    /// never quoting the secret.
    package init(parsing secret: SecretBytes) throws(OneTimeCodeError) {
        var bytes = secret.copyBytes()
        defer { for index in bytes.indices { bytes[index] = 0 } }
        while let last = bytes.last, last == 0x0A || last == 0x0D || last == 0x20 { bytes.removeLast() }
        let scheme = Array("otpauth://".utf8)
        guard bytes.count >= scheme.count, bytes.prefix(scheme.count).map(Self.lowercased) == scheme else {
            guard let key = Base32.decode(bytes) else { throw .notOneTimeCode }
            guard key.count >= Self.minimumKeyBytes else { throw .keyTooShort }
            (kind, digest, digits, self.key, uri) = (.totp(period: 30), .sha1, 6, key, nil)
            return
        }
        let questionMark = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.endIndex
        let head = Array(bytes[..<questionMark])
        let type = String(
            decoding: head.dropFirst(scheme.count).prefix { $0 != UInt8(ascii: "/") }.map(Self.lowercased),
            as: UTF8.self)
        var parameters: [(name: String, value: [UInt8])] = []
        for pair in bytes[questionMark...].dropFirst().split(separator: UInt8(ascii: "&")) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            parameters.append(
                (
                    String(decoding: parts[0].map(Self.lowercased), as: UTF8.self),
                    parts.count > 1 ? Array(parts[1]) : []
                ))
        }
        func value(_ name: String) -> String? {
            parameters.first { $0.name == name }.map { String(decoding: Self.percentDecoded($0.value), as: UTF8.self) }
        }
        guard let encodedKey = parameters.first(where: { $0.name == "secret" })?.value else { throw .missingSecret }
        var decodedKey = Self.percentDecoded(encodedKey)
        defer { for index in decodedKey.indices { decodedKey[index] = 0 } }
        guard let key = Base32.decode(decodedKey) else { throw .secretNotBase32 }
        guard key.count >= Self.minimumKeyBytes else { throw .keyTooShort }
        guard let digest = HMACDigest(rawValue: (value("algorithm") ?? "SHA1").uppercased()) else { throw .algorithm }
        guard let digits = Int(value("digits") ?? "6"), (6...8).contains(digits) else { throw .digits }
        switch type {
        case "totp":
            guard let period = Int(value("period") ?? "30"), (1...86_400).contains(period) else { throw .period }
            kind = .totp(period: period)
        case "hotp":
            guard let text = value("counter"), let counter = UInt64(text), counter < UInt64.max else { throw .counter }
            kind = .hotp(counter: counter)
        default:
            throw .type
        }
        (self.digest, self.digits, self.key, uri) = (digest, digits, key, (head, parameters))
    }

    /// The code for counter value `counter` (RFC 4226, section 5.3: dynamic
    /// truncation of HMAC(key, counter as 8 big-endian bytes)).
    package func code(counter: UInt64) -> String {
        let message = (0..<8).map { UInt8(truncatingIfNeeded: counter >> UInt64(56 - 8 * $0)) }
        let mac = digest.mac(key: key, data: message)
        let offset = Int(mac[mac.count - 1] & 0x0F)
        let number =
            (UInt32(mac[offset] & 0x7F) << 24 | UInt32(mac[offset + 1]) << 16
                | UInt32(mac[offset + 2]) << 8 | UInt32(mac[offset + 3]))
        let modulus = (0..<digits).reduce(UInt32(1)) { product, _ in product * 10 }
        let text = String(number % modulus)
        return String(repeating: "0", count: digits - text.count) + text
    }

    /// The TOTP code at `unixTime` (RFC 6238: the counter is the number of
    /// whole periods since the Unix epoch); for HOTP, the code of its counter.
    package func code(atUnixTime unixTime: Int64) -> String {
        switch kind {
        case .totp(let period): code(counter: UInt64(max(0, unixTime)) / UInt64(period))
        case .hotp(let counter): code(counter: counter)
        }
    }

    /// A TOTP secret's period in seconds; nil for HOTP.
    package var period: Int? {
        guard case .totp(let period) = kind else { return nil }
        return period
    }

    /// Seconds from `unixTime` until the TOTP code of that time is replaced
    /// (1 to the period); nil for HOTP.
    package func secondsRemaining(atUnixTime unixTime: Int64) -> Int? {
        guard let period else { return nil }
        return period - Int(max(0, unixTime) % Int64(period))
    }

    /// The secret to store after an HOTP code is used: the same URI with the
    /// counter one higher. Nil for TOTP, which stores nothing.
    package func advanced() -> SecretBytes? {
        guard case .hotp(let counter) = kind, let uri else { return nil }
        var builder = SecretBytesBuilder()
        uri.head.withUnsafeBytes { builder.append($0) }
        for (index, parameter) in uri.parameters.enumerated() {
            builder.append(index == 0 ? "?" : "&")
            builder.append(parameter.name + "=")
            if parameter.name == "counter" {
                builder.append(String(counter + 1))
            } else {
                parameter.value.withUnsafeBytes { builder.append($0) }
            }
        }
        return builder.finish()
    }

    static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }

    static func percentDecoded(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let value = UInt8(String(decoding: bytes[index + 1...index + 2], as: UTF8.self), radix: 16)
            {
                result.append(value)
                index += 3
            } else {
                result.append(bytes[index] == UInt8(ascii: "+") ? UInt8(ascii: " ") : bytes[index])
                index += 1
            }
        }
        return result
    }
}

/// Why an item's secret is not a one-time code secret (the command line words it, never
/// quoting the secret).
package enum OneTimeCodeError: Error, Equatable, Sendable {
    /// Neither an otpauth:// URI nor Base32.
    case notOneTimeCode
    /// The URI has no `secret` parameter.
    case missingSecret
    /// The `secret` parameter is not Base32.
    case secretNotBase32
    /// The key is shorter than `OneTimeCodeSecret.minimumKeyBytes`.
    case keyTooShort
    /// The `algorithm` parameter is not SHA1, SHA256 or SHA512.
    case algorithm
    /// The `digits` parameter is not 6, 7 or 8.
    case digits
    /// The `period` parameter is not 1 to 86400 seconds.
    case period
    /// An HOTP URI lacks a whole-number `counter`.
    case counter
    /// The URI's type is neither totp nor hotp.
    case type
}

/// Descriptions and mirrors name the kind, never the key or the URI.
extension OneTimeCodeSecret: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The kind, hash and digits; never the key.
    package var description: String { "OneTimeCodeSecret(\(kind), \(digest.rawValue), \(digits) digits)" }
    /// The same as `description`.
    package var debugDescription: String { description }
    /// A mirror without children, so test failures and dumps show no key.
    package var customMirror: Mirror { Mirror(self, children: []) }
}
