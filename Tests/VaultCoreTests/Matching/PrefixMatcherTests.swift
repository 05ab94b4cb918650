import Testing
import VaultTestSupport
@testable import VaultCore

/// `vault scan`'s matcher finds exactly what a naive search finds: every occurrence of every
/// pattern lying whole in the buffer, overlapping ones, ones sharing a prefix, ones at the ends.
@Suite struct PrefixMatcherTests {
    static func naive(_ patterns: [[UInt8]], in text: [UInt8]) -> Set<[Int]> {
        var found = Set<[Int]>()
        for (id, pattern) in patterns.enumerated() where pattern.count <= text.count {
            for start in 0...(text.count - pattern.count) where Array(text[start..<(start + pattern.count)]) == pattern {
                found.insert([id, start + pattern.count])
            }
        }
        return found
    }

    @Test func findsWhatANaiveSearchFinds() {
        var generator = SeededGenerator(test: "PrefixMatcherTests")
        for round in 0..<300 {
            // A small alphabet makes overlaps, shared prefixes and near misses common.
            let alphabet: [UInt8] = round % 3 == 0 ? Array("ab".utf8) : round % 3 == 1 ? Array("abc".utf8) : (0...255).map { UInt8($0) }
            var patterns: [[UInt8]] = []
            for _ in 0..<Int.random(in: 1...12, using: &generator) {
                let pattern = (0..<Int.random(in: 8...14, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
                if !patterns.contains(pattern) { patterns.append(pattern) }
            }
            var text = (0..<Int.random(in: 0...300, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            // Plant some patterns, at the very start and end among them.
            for _ in 0..<3 {
                let pattern = patterns.randomElement(using: &generator)!
                let at = Int.random(in: 0...text.count, using: &generator)
                text.insert(contentsOf: pattern, at: at)
            }
            text += patterns.randomElement(using: &generator)!
            let matcher = PrefixMatcher(patterns: patterns)
            var found = Set<[Int]>()
            text.withUnsafeBytes { buffer in matcher.search(buffer) { found.insert([$0, $1]) } }
            #expect(found == PrefixMatcherTests.naive(patterns, in: text), "round \(round) (seed \(generator.seed))")
        }
    }

    /// Patterns shorter than 8 bytes make the prefix shorter: the search still finds exactly what
    /// a naive one finds, and the pending prefix is the longest end of the text that begins a
    /// longer pattern (what the masker holds back).
    @Test func shortPatternsAndPendingPrefixesMatchANaiveSearch() {
        var generator = SeededGenerator(test: "shortPatternsAndPendingPrefixesMatchANaiveSearch")
        for round in 0..<300 {
            let alphabet: [UInt8] = round % 2 == 0 ? Array("ab".utf8) : Array("abc".utf8)
            var patterns: [[UInt8]] = []
            for _ in 0..<Int.random(in: 1...10, using: &generator) {
                let pattern = (0..<Int.random(in: 2...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
                if !patterns.contains(pattern) { patterns.append(pattern) }
            }
            var text = (0..<Int.random(in: 0...60, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            text.insert(contentsOf: patterns.randomElement(using: &generator)!, at: Int.random(in: 0...text.count, using: &generator))
            let matcher = PrefixMatcher(patterns: patterns)
            var found = Set<[Int]>()
            text.withUnsafeBytes { buffer in matcher.search(buffer) { found.insert([$0, $1]) } }
            #expect(found == PrefixMatcherTests.naive(patterns, in: text), "round \(round) (seed \(generator.seed))")
            let pending = text.withUnsafeBytes { matcher.pendingPrefixLength($0) }
            let expected =
                (1..<max(text.count + 1, 1)).last { length in
                    patterns.contains { $0.count > length && Array($0.prefix(length)) == Array(text.suffix(length)) }
                } ?? 0
            #expect(pending == expected, "round \(round) (seed \(generator.seed))")
        }
    }

    /// Secrets repeat across items: a pattern given twice is reported once, under its lower id.
    @Test func aRepeatedPatternIsReportedOnceUnderItsFirstID() {
        let patterns: [[UInt8]] = ["token-one", "other-secret", "token-one", "token-onf", "other-secret"].map { Array($0.utf8) }
        let matcher = PrefixMatcher(patterns: patterns)
        var found: [[Int]] = []
        Array("a token-one and other-secret".utf8).withUnsafeBytes { buffer in matcher.search(buffer) { found.append([$0, $1]) } }
        #expect(found == [[0, 11], [1, 28]])
    }
}
