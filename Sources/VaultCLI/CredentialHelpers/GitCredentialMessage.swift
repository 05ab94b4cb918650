import VaultCrypto

/// One credential description in git's helper protocol (git-credential(1)):
/// `key=value` lines, ended by a blank line or the end of the input. Values
/// stay in wiped buffers, since `password` and tokens are among them.
struct GitCredentialMessage {
    /// One `key=value` line; array attributes (`wwwauth[]`, `capability[]`) may repeat.
    struct Attribute {
        var key: String
        var value: SecretBytes
    }

    /// The attributes in the order given.
    var attributes: [Attribute] = []

    /// The last value of `key`; an empty value counts as unset, as git resets an attribute with `key=`.
    func value(_ key: String) -> SecretBytes? {
        guard let value = attributes.last(where: { $0.key == key })?.value, value.count > 0 else { return nil }
        return value
    }

    /// The last value of `key`, empty or not: what `store` keeps (git's t0303
    /// stores `username=` and `password=`, and expects them back).
    func storedValue(_ key: String) -> SecretBytes? {
        attributes.last(where: { $0.key == key })?.value
    }

    /// The last value of `key` as text, for names (protocol, host, path, username).
    func text(_ key: String) -> String? {
        value(key).map { String(decoding: $0.copyBytes(), as: UTF8.self) }
    }

    mutating func append(_ key: String, _ value: SecretBytes) {
        attributes.append(Attribute(key: key, value: value))
    }

    mutating func append(_ key: String, _ text: String) {
        append(key, SecretBytes(Array(text.utf8)))
    }

    /// Parses git's input: lines split at the first `=`, a trailing `\r`
    /// dropped (as git's own reader does), up to the first empty line.
    ///
    /// - Throws: `UsageError` for a line without `=`, an empty key, a NUL
    ///   byte, a carriage return inside a value, or a value that is not UTF-8.
    static func parse(_ input: UnsafeRawBufferPointer) throws -> GitCredentialMessage {
        var message = GitCredentialMessage()
        var lineStart = 0
        var lineNumber = 0
        while lineStart < input.count {
            lineNumber += 1
            var lineEnd = lineStart
            while lineEnd < input.count, input[lineEnd] != 0x0A { lineEnd += 1 }
            let next = lineEnd + 1
            if lineEnd > lineStart, input[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            let line = UnsafeRawBufferPointer(rebasing: input[lineStart..<lineEnd])
            if line.isEmpty { break }
            if line.contains(0) {
                throw UsageError("input line \(lineNumber) holds a NUL byte", hint: "send text lines of key=value")
            }
            guard let equals = line.firstIndex(of: UInt8(ascii: "=")) else {
                throw UsageError(
                    "input line \(lineNumber) has no \"=\"",
                    hint: "git's credential protocol sends one key=value per line, then a blank line")
            }
            guard equals > 0, let key = String(validating: line[0..<equals], as: UTF8.self) else {
                throw UsageError("input line \(lineNumber) has no key before \"=\"", hint: "send key=value lines, e.g. host=example.com")
            }
            let value = UnsafeRawBufferPointer(rebasing: line[(equals + 1)...])
            if value.contains(0x0D) {
                throw UsageError("the value of \(quoted(key)) holds a carriage return", hint: "a value is one line of text")
            }
            if String(validating: value, as: UTF8.self) == nil {
                throw UsageError("the value of \(quoted(key)) is not UTF-8 text", hint: "send UTF-8 text")
            }
            message.append(key, SecretBytes(value))
            lineStart = next
        }
        return message
    }

    /// The checks git makes before it writes a value: no newline and no NUL
    /// (git dies on either), so what vault prints is exactly one line each.
    ///
    /// - Throws: `UsageError` naming the key, never the value.
    func validateForOutput() throws {
        for attribute in attributes {
            let bad = attribute.value.withUnsafeBytes { $0.contains { $0 == 0x0A || $0 == 0x0D || $0 == 0 } }
            if bad {
                throw UsageError(
                    "the stored \(quoted(attribute.key)) holds a line break or NUL byte, which git's protocol cannot carry",
                    hint: "store it again without line breaks, e.g. with 'vault update'")
            }
        }
    }

    /// The message as git reads it: `key=value` lines. Call `validateForOutput` first.
    func serialized() -> SecretBytes {
        let length = attributes.reduce(0) { $0 + $1.key.utf8.count + $1.value.count + 2 }
        let output = SecretBytes(count: length)
        output.withUnsafeMutableBytes { out in
            var offset = 0
            func put(_ bytes: UnsafeRawBufferPointer) {
                out.baseAddress!.advanced(by: offset).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
                offset += bytes.count
            }
            for attribute in attributes {
                var key = attribute.key + "="
                key.withUTF8 { put(UnsafeRawBufferPointer($0)) }
                attribute.value.withUnsafeBytes { if $0.count > 0 { put($0) } }
                out[offset] = 0x0A
                offset += 1
            }
        }
        return output
    }
}

extension GitCredentialMessage {
    /// The message with a `url=` attribute split into protocol, host, path and
    /// username, as git's own reader does; parts given on their own lines win.
    ///
    /// - Throws: `UsageError` for a URL without `PROTOCOL://`, or whose
    ///   percent-decoded parts hold a line break or NUL (git refuses those too).
    func resolvingURL() throws -> GitCredentialMessage {
        guard let url = text("url") else { return self }
        guard let separator = url.firstRange(of: "://"), separator.lowerBound > url.startIndex else {
            throw UsageError("the url has no \"PROTOCOL://\"", hint: "send url=https://host/path, or protocol= and host= lines")
        }
        var parts: [(key: String, value: String)] = [("protocol", String(url[..<separator.lowerBound]))]
        let rest = url[separator.upperBound...]
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = rest[..<slash]
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            parts.append(("username", String(userInfo[..<(userInfo.firstIndex(of: ":") ?? userInfo.endIndex)])))
            authority = authority[authority.index(after: at)...]
        }
        parts.append(("host", String(authority)))
        if slash < rest.endIndex { parts.append(("path", String(rest[rest.index(after: slash)...]))) }
        var resolved = self
        for (key, encoded) in parts where value(key) == nil {
            let decoded = GitCredentialMessage.percentDecoded(encoded)
            if decoded.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0 }) {
                throw UsageError("the url's \(key) holds an encoded line break or NUL byte", hint: "send a url without %0a, %0d or %00")
            }
            if !decoded.isEmpty { resolved.append(key, SecretBytes(decoded)) }
        }
        return resolved
    }

    /// `%XX` escapes decoded; a malformed escape is kept as it is.
    static func percentDecoded(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let byte = UInt8(String(decoding: bytes[(index + 1)...(index + 2)], as: UTF8.self), radix: 16)
            {
                out.append(byte)
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return out
    }
}
