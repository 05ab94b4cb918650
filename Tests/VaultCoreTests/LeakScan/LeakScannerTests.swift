import Testing
import VaultCore

/// Every hit of `patterns` in `input`, read `size` bytes at a time.
private func hits(_ input: [UInt8], _ patterns: LeakPatterns, readSize size: Int) -> [LeakHit] {
    var offset = 0
    return LeakScanner(patterns).scan { target in
        let count = min(size, target.count, input.count - offset)
        target.copyMemory(from: UnsafeRawBufferPointer(rebasing: input.withUnsafeBytes { $0 }[offset..<offset + count]))
        offset += count
        return count
    }
}

@Suite struct LeakScannerTests {
    static let secret = Array("p@ss/w+rd?=&\"<tok>~é".utf8)

    @Test func everyEncodingOfASecretIsFoundWhereverItSits() {
        let patterns = LeakPatterns(secrets: [LeakScannerTests.secret])
        for prefix in ["", "u", "us", "user:"] {
            let wrapped = Array(prefix.utf8) + LeakScannerTests.secret + Array("!tail".utf8)
            let base64 = Base64.encode(wrapped)
            let samples: [(SecretEncoding, String)] = [
                (.base64, base64),
                (.base64, base64.replacing("=", with: "")),
                (.base64url, base64.replacing("+", with: "-").replacing("/", with: "_").replacing("=", with: ""))
            ]
            for (encoding, text) in samples {
                let found = hits(Array("x: \(text)\n".utf8), patterns, readSize: 1 << 20).map(\.source.encoding)
                // Where the URL-safe form has no - or _, it is the standard form and named so.
                #expect(
                    found.contains(encoding) || (encoding == .base64url && found == [.base64]),
                    "\(encoding) after \(prefix.count) bytes: \(text)")
            }
        }
        let hex = LeakScannerTests.secret.map { String($0, radix: 16) }.joined()
        let samples: [(SecretEncoding, String)] = [
            (.raw, String(decoding: LeakScannerTests.secret, as: UTF8.self)),
            (.hex, hex), (.hex, hex.uppercased()),
            (.url, "p%40ss%2Fw%2Brd%3F%3D%26%22%3Ctok%3E~%C3%A9"),
            (.url, "p%40ss%2fw%2brd%3f%3d%26%22%3ctok%3e~%c3%a9"),
            (.json, #"p@ss/w+rd?=&\"<tok>~é"#),
            (.json, #"p@ss\/w+rd?=&\"<tok>~é"#),
            (.json, #"p@ss/w+rd?=&\"<tok>~\u00e9"#),
            (.json, #"p@ss/w+rd?=\u0026\"\u003ctok\u003e~é"#)
        ]
        for (encoding, text) in samples {
            let found = hits(Array("key=\(text);".utf8), patterns, readSize: 1 << 20)
            #expect(found.map(\.source) == [LeakSource(secret: 0, encoding: encoding)], "\(encoding): \(text)")
        }
    }

    @Test func hitsAreFoundOnceWithTheirLineAndColumnHoweverTheInputIsRead() {
        let patterns = LeakPatterns(secrets: [Array("secret-one".utf8), Array("one-two-three".utf8)])
        let input = Array("a\nbb secret-one-two-three\nsecret-one\n".utf8)
        let expected = [
            LeakHit(line: 2, column: 4, source: LeakSource(secret: 0, encoding: .raw)),
            LeakHit(line: 2, column: 11, source: LeakSource(secret: 1, encoding: .raw)),
            LeakHit(line: 3, column: 1, source: LeakSource(secret: 0, encoding: .raw))
        ]
        for size in 1...input.count {
            #expect(hits(input, patterns, readSize: size) == expected, "reads of \(size) bytes")
        }
    }

    @Test func shortSecretsAreSkippedAndSharedSecretsNameEveryItem() {
        let patterns = LeakPatterns(secrets: [Array("1234567".utf8), Array("same-secret".utf8), Array("same-secret".utf8), []])
        #expect(patterns.skipped == [0, 3])
        let found = hits(Array("x same-secret".utf8), patterns, readSize: 4)
        #expect(found.map(\.source.secret) == [1, 2])
    }
}
