import Testing
import VaultCore
import VaultTestSupport

/// Runs `input` through a fresh stream cut into reads of the given sizes.
private func mask(_ input: [UInt8], secrets: [String], reads sizes: [Int]) -> [UInt8] {
    var stream = MaskingStream(MaskPatterns(secrets: secrets.map { Array($0.utf8) }))
    var output: [UInt8] = []
    var offset = 0
    var next = 0
    while offset < input.count {
        let size = min(max(1, sizes[next % sizes.count]), input.count - offset)
        next += 1
        input[offset..<offset + size].withUnsafeBytes { chunk in
            stream.feed(chunk) { output += $0 }
        }
        offset += size
    }
    stream.finish { output += $0 }
    return output
}

private func mask(_ text: String, secrets: [String], reads sizes: [Int] = [1 << 16]) -> String {
    String(decoding: mask(Array(text.utf8), secrets: secrets, reads: sizes), as: UTF8.self)
}

private let marker = "<concealed by vault>"

@Suite struct MaskingTests {
    @Test func secretsAreReplacedAndEverythingElseKept() {
        #expect(mask("token=hunter22 and hunter22!", secrets: ["hunter22"]) == "token=\(marker) and \(marker)!")
        #expect(mask("no secrets here", secrets: ["hunter22"]) == "no secrets here")
        #expect(mask("hunter2hunter22", secrets: ["hunter22"]) == "hunter2\(marker)")
    }

    @Test func overlappingAndNestedSecretsNeverLeakAByte() {
        #expect(mask("xabcdefy", secrets: ["abcdef", "cdef"]) == "x\(marker)y")
        #expect(mask("xabcdefy", secrets: ["bcde", "abcdef"]) == "x\(marker)y")
        #expect(mask("abcdab", secrets: ["abcd", "cdab"]) == marker)
        // Two secrets side by side are two markers.
        #expect(mask("abcdcdab", secrets: ["abcd", "cdab"]) == marker + marker)
        #expect(mask("aaaaaaa", secrets: ["aaaa"]) == marker)
    }

    @Test func multiLineSecretsAreMaskedWholeAndLineByLine() {
        let key = "-----BEGIN KEY-----\nMIIEsecretline\n-----END KEY-----"
        #expect(mask("k=\(key)\n", secrets: [key]) == "k=\(marker)\n")
        // A terminal turns \n into \r\n: each line is still concealed.
        let viaTerminal = key.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(mask(viaTerminal, secrets: [key]) == "\(marker)\r\n\(marker)\r\n\(marker)")
        #expect(mask("ab\ncd", secrets: ["ab\ncd"]) == marker)
    }

    @Test func shortSecretsAreCountedAndLeftAlone() {
        let patterns = MaskPatterns(secrets: [Array("abc".utf8), Array("abcd".utf8), []])
        #expect(patterns.tooShortCount == 1)
        #expect(mask("abc abcd", secrets: ["abc", "abcd"]) == "abc \(marker)")
    }

    @Test func nothingToMaskPassesBytesThrough() {
        let bytes = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        #expect(mask(bytes, secrets: [], reads: [7, 100]) == bytes)
    }

    @Test func bytesNotPartOfASecretAreWrittenWithoutWaiting() {
        var stream = MaskingStream(MaskPatterns(secrets: [Array("secret-value".utf8)]))
        var output: [UInt8] = []
        Array("progress 10%... sec".utf8).withUnsafeBytes { stream.feed($0) { output += $0 } }
        // Everything but "sec", which could still become the secret, is out already.
        #expect(String(decoding: output, as: UTF8.self) == "progress 10%... ")
        Array("ond".utf8).withUnsafeBytes { stream.feed($0) { output += $0 } }
        #expect(String(decoding: output, as: UTF8.self) == "progress 10%... second")
    }

    /// The property: random output with secrets inserted, cut at every
    /// boundary and into random read sizes, comes out exactly as a one-shot
    /// replacement would give it.
    /// (With a 4-byte secret the scan's skip window is 4 bytes; without, 8.)
    @Test(arguments: [
        ["hunter22", "p@ss:w0rd/with-more", "AAAA", "line one\nline two", "sec"],
        ["hunter22hunter", "p@ss:w0rd/with-more", "line one\nline two", "sec"]
    ])
    func secretsSplitAtEveryBoundaryAndRandomReadSizes(secrets: [String]) {
        var generator = SeededGenerator(test: "secretsSplitAtEveryBoundaryAndRandomReadSizes")
        let alphabet = Array("abcdefghinrstu AP@2\n:w".utf8)
        for round in 0..<100 {
            var input: [UInt8] = []
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                let filler = (0..<Int.random(in: 0...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
                input += filler
                input += Array(secrets.randomElement(using: &generator)!.utf8)
            }
            let reference = oneShotMask(input, secrets: secrets)
            for secret in secrets.dropLast() {
                #expect(!String(decoding: reference, as: UTF8.self).contains(secret), "the reference masker leaks")
            }
            for cut in 0...input.count {
                let output = mask(input, secrets: secrets, reads: [max(cut, 1), input.count])
                if output != reference {
                    Issue.record("round \(round), cut at \(cut): \(String(decoding: output, as: UTF8.self).debugDescription)")
                    return
                }
            }
            let sizes = (0..<16).map { _ in Int.random(in: 1...9, using: &generator) }
            #expect(mask(input, secrets: secrets, reads: sizes) == reference, "round \(round), reads \(sizes)")
        }
    }

    /// The same property over random sets of secrets (4 to 20 bytes of a small alphabet, some
    /// multi-line, sharing prefixes and overlapping often): what the masker writes, read by read
    /// of random sizes, is what the one-shot reference gives.
    @Test func randomSecretsAreMaskedAsTheReferenceMasksThem() {
        var generator = SeededGenerator(test: "randomSecretsAreMaskedAsTheReferenceMasksThem")
        let alphabet = Array("abc\n".utf8)
        for round in 0..<300 {
            let secrets = (0..<Int.random(in: 1...8, using: &generator)).map { _ in
                String(
                    decoding: (0..<Int.random(in: 4...20, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! },
                    as: UTF8.self)
            }
            var input: [UInt8] = []
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                input += (0..<Int.random(in: 0...10, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
                input += Array(secrets.randomElement(using: &generator)!.utf8)
            }
            let sizes = (0..<8).map { _ in Int.random(in: 1...12, using: &generator) }
            let output = mask(input, secrets: secrets, reads: sizes)
            #expect(
                output == oneShotMask(input, secrets: secrets),
                "round \(round), secrets \(secrets.map(\.debugDescription)), reads \(sizes) (seed \(generator.seed))")
        }
    }

    @Test func randomBinaryOutputWithoutSecretsIsByteExact() {
        var generator = SeededGenerator(test: "randomBinaryOutputWithoutSecretsIsByteExact")
        let input = (0..<200_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let sizes = (0..<50).map { _ in Int.random(in: 1...70_000, using: &generator) }
        #expect(mask(input, secrets: ["\u{7f}ELFsecret", "zzzzzzzz"], reads: sizes) == input)
    }
}

/// A deliberately simple masker to compare against: every occurrence of
/// every pattern is a range; overlapping ranges merge; each becomes one marker.
private func oneShotMask(_ input: [UInt8], secrets: [String]) -> [UInt8] {
    var patterns: [[UInt8]] = []
    for secret in secrets {
        let bytes = Array(secret.utf8)
        if bytes.count >= MaskPatterns.minimumLength { patterns.append(bytes) }
        if bytes.contains(0x0A) {
            patterns += bytes.split(separator: 0x0A).map(Array.init).filter { $0.count >= MaskPatterns.minimumLength }
        }
    }
    var ranges: [Range<Int>] = []
    for pattern in patterns where pattern.count <= input.count {
        for start in 0...(input.count - pattern.count) where Array(input[start..<start + pattern.count]) == pattern {
            ranges.append(start..<start + pattern.count)
        }
    }
    var merged: [Range<Int>] = []
    for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
        if let last = merged.last, range.lowerBound < last.upperBound {
            merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
        } else {
            merged.append(range)
        }
    }
    var output: [UInt8] = []
    var index = 0
    for range in merged {
        output += input[index..<range.lowerBound]
        output += Array(marker.utf8)
        index = range.upperBound
    }
    return output + input[index...]
}
