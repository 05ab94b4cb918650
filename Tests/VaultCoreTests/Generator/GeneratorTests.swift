import Foundation
import Testing
import VaultCore
import VaultCrypto

@Suite struct GeneratorTests {
    @Test func theWordListIsTheEFFLargeList() {
        let words = EFFLargeWordList.words
        #expect(words.count == 7776)
        #expect(Set(words).count == 7776)
        #expect(words.first == "abacus")
        #expect(words.last == "zoom")
        #expect(words.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isLowercase || $0 == "-" } })
    }

    /// The compact table is diceware's file word for word (make deps installs it; CI runs as root with it).
    @Test func theWordListMatchesDicewaresFileWordForWord() throws {
        let path = "/usr/lib/python3/dist-packages/diceware/wordlists/wordlist_en_eff.txt"
        let file = try String(contentsOfFile: path, encoding: .utf8)
        let expected = file.split(separator: "\n").map { $0.split(separator: "\t").last.map(String.init) ?? "" }
        #expect(EFFLargeWordList.words.map(String.init) == expected)
    }

    @Test func everyRequiredClassIsPresentAndTheLengthHolds() throws {
        let alphabet = Array((0x21...0x7E).map { UInt8($0) })
        let rule = try #require(PasswordRule(length: 4, alphabet: alphabet, required: CharacterClass.allCases))
        for _ in 0..<500 {
            let bytes = rule.generate().copyBytes()
            #expect(bytes.count == 4)
            for required in CharacterClass.allCases {
                #expect(bytes.contains(where: required.contains), "\(required) missing")
            }
        }
    }

    @Test func onlyTheAlphabetIsDrawnAndEveryCharacterComes() throws {
        let alphabet = Array("abc-".utf8)
        let rule = try #require(PasswordRule(length: 64, alphabet: alphabet))
        var seen = Set<UInt8>()
        for _ in 0..<20 { seen.formUnion(rule.generate().copyBytes()) }
        #expect(seen == Set(alphabet))
    }

    /// Rejection sampling: over 255 symbols a plain byte modulo would draw
    /// the first twice as often as the others (bytes 0 and 255 both map to it).
    @Test func drawsAreUnbiased() throws {
        let rule = try #require(PasswordRule(length: 255 * 4000, alphabet: Array(0...254)))
        var counts = [Int](repeating: 0, count: 255)
        for byte in rule.generate().copyBytes() { counts[Int(byte)] += 1 }
        #expect(counts[0] < 4600, "the first symbol came \(counts[0]) times; about 4000 expected")
        #expect(counts.allSatisfy { (3400...4600).contains($0) })
    }

    @Test func rulesThatCannotBeMetAreRefused() {
        #expect(PasswordRule(length: 8, alphabet: Array("abc".utf8), required: [.digit]) == nil)
        #expect(PasswordRule(length: 1, alphabet: Array("a1".utf8), required: [.lower, .digit]) == nil)
        #expect(PasswordRule(length: 0, alphabet: Array("a".utf8)) == nil)
        #expect(PasswordRule(length: 4, alphabet: []) == nil)
        #expect(PassphraseRule(words: 0, separator: "-") == nil)
    }

    @Test func entropyCountsTheRule() throws {
        let plain = try #require(PasswordRule(length: 32, alphabet: Array("0123456789abcdef".utf8)))
        #expect(abs(plain.entropyBits - 128) < 1e-9)
        // Two characters over {a, 1} with both classes required: "a1" and "1a", one bit.
        let both = try #require(PasswordRule(length: 2, alphabet: Array("a1".utf8), required: [.lower, .digit]))
        #expect(abs(both.entropyBits - 1) < 1e-9)
        // Three characters over {a, b, 1} requiring a digit: 27 - 8 = 19 strings.
        let digit = try #require(PasswordRule(length: 3, alphabet: Array("ab1".utf8), required: [.digit]))
        #expect(abs(digit.entropyBits - log2(19.0)) < 1e-9)
        let words = try #require(PassphraseRule(words: 6, separator: " "))
        #expect(abs(words.entropyBits - 6 * log2(7776.0)) < 1e-9)
    }

    @Test func aPassphraseHasItsWordsAndSeparators() throws {
        let rule = try #require(PassphraseRule(words: 6, separator: " "))
        let list = Set(EFFLargeWordList.words.map(String.init))
        for _ in 0..<50 {
            let text = String(decoding: rule.generate().copyBytes(), as: UTF8.self)
            let words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            #expect(words.count == 6)
            #expect(words.allSatisfy(list.contains))
        }
    }

    @Test func ambiguousCharactersAreTheSixOfTheIssue() {
        #expect(CharacterClass.ambiguous == Array("0O1lI|".utf8))
    }
}
