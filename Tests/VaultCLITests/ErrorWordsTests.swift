import Testing
import VaultCore
@testable import VaultCLI

/// VaultCore's errors carry facts; the words are the command line's. These pin the sentences
/// that are put together from parts (a noun and its verb, a range of versions), which no
/// scenario reaches, so a change to a part shows here.
@Suite struct ErrorWordsTests {
    @Test func damageIsWordedFromItsParts() {
        let cases: [(Damage, String)] = [
            (.doesNotOpen(.record), "a record does not open"),
            (.doesNotOpen(.teamLogPayloads), "the team log's payloads do not open"),
            (.doesNotOpen(.bundleItems), "its sealed items do not open"),
            (.trailingBytes(after: .lastCredentialGroup), "bytes follow the last group"),
            (.unknownClass(in: .trashedRecord), "a trashed record names an unknown class"),
            (.truncated(expected: .value32, offset: 7), "the file ends where a 32-bit value was expected at offset 7"),
            (.truncated(expected: .bytes(12), offset: 40), "the file ends where 12 bytes were expected at offset 40"),
            (.count(.indexBuckets(max: 32768), 3), "an index of 3 buckets (not a power of two up to 32768)"),
            (.unsupportedVersion(.vaultFile, found: 9, reads: 1...3), "format version 9 is not supported (this vault reads versions 1 to 3)"),
            (.unsupportedVersion(.credential, found: 5, reads: 1...2), "credential version 5 is not supported (this vault reads versions 1 and 2)"),
            (.unsupportedVersion(.exportBundle, found: 2, reads: 1...1), "bundle version 2 is not supported (this vault reads version 1)"),
            (.missingPrefix("vault-credential-v1:"), "it does not start with vault-credential-v1:"),
        ]
        for (damage, words) in cases { #expect(damage.description == words) }
    }

    @Test func injectionFaultsAreWordedByTheCommandLine() {
        #expect(throws: TemplateError.self) { try Template.parse(Array("{{ vault://a }}".utf8)) }
        do { _ = try Template.parse(Array("{{ vault://a }}".utf8)) } catch {
            #expect(error.problem == "vault://a: it has 1 part after vault://; it needs SERVICE/ACCOUNT or GROUP/SERVICE/ACCOUNT")
        }
        for (text, words) in [("A=1\nB='open", "the quote ' opened here is never closed"), ("NAME value", "expected \"=\" after NAME")] {
            #expect(throws: DotenvError.self) { try Dotenv.parse(text) }
            do { _ = try Dotenv.parse(text) } catch { #expect(error.problem == words) }
        }
        #expect(OneTimeCodeError.keyTooShort.problem == "the key is shorter than 80 bits (16 Base32 characters)")
    }

    @Test func valuesAndActionsAreWordedByTheCommandLine() {
        #expect(ErrorReport(VaultError.invalidValue(.secretTooLarge(size: 1_048_577, limit: 1 << 20))).message
            == "invalid secret: it is 1048577 bytes; the limit is 1048576 (1 MiB)")
        #expect(ErrorReport(VaultError.invalidValue(.attributeTooLarge(name: "label", size: 5000, limit: 4096))).message
            == "invalid label: it is 5000 bytes; the limit is 4096")
        #expect(ErrorReport(VaultError.invalidKeyFile(path: "k", .tooLong(limit: 64 * 1024))).message
            == "cannot use \"k\" as a credential: it holds more than 64 KiB")
        #expect(ErrorReport(VaultError.trustKeyNeeded(.rekeyVault)).message.hasPrefix("a member's identity cannot re-key the vault: "))
    }
}
