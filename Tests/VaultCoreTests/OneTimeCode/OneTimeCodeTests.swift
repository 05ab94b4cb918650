import Testing
import VaultCore
import VaultCrypto

@Suite struct OneTimeCodeTests {
    /// The ASCII seeds of RFC 6238, appendix B, in Base32: 20 bytes for SHA-1,
    /// 32 for SHA-256, 64 for SHA-512.
    static let seeds: [HMACDigest: String] = [
        .sha1: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ",
        .sha256: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZA====",
        .sha512: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNA="
    ]

    /// RFC 6238, appendix B: time, then the 8-digit codes for SHA-1, SHA-256, SHA-512 (period 30).
    static let totpVectors: [(Int64, [String])] = [
        (59, ["94287082", "46119246", "90693936"]),
        (1_111_111_109, ["07081804", "68084774", "25091201"]),
        (1_111_111_111, ["14050471", "67062674", "99943326"]),
        (1_234_567_890, ["89005924", "91819424", "93441116"]),
        (2_000_000_000, ["69279037", "90698825", "38618901"]),
        (20_000_000_000, ["65353130", "77737706", "47863826"])
    ]

    /// RFC 4226, appendix D: the 6-digit HOTP codes of counters 0 to 9 (SHA-1, the 20-byte seed).
    static let hotpVectors = [
        "755224", "287082", "359152", "969429", "338314",
        "254676", "287922", "162583", "399871", "520489"
    ]

    static func secret(_ text: String) -> SecretBytes { SecretBytes(Array(text.utf8)) }

    @Test func rfc6238Vectors() throws {
        for (time, codes) in Self.totpVectors {
            for (digest, expected) in zip([HMACDigest.sha1, .sha256, .sha512], codes) {
                let uri = "otpauth://totp/ACME:alice?secret=\(Self.seeds[digest]!)&algorithm=\(digest.rawValue)&digits=8&period=30"
                let parsed = try OneTimeCodeSecret(parsing: Self.secret(uri))
                #expect(parsed.code(atUnixTime: time) == expected, "\(digest) at \(time)")
            }
        }
    }

    @Test func rfc4226Vectors() throws {
        let parsed = try OneTimeCodeSecret(parsing: Self.secret("otpauth://hotp/x?secret=\(Self.seeds[.sha1]!)&counter=0"))
        for (counter, expected) in Self.hotpVectors.enumerated() {
            #expect(parsed.code(counter: UInt64(counter)) == expected)
        }
    }

    @Test func aBareSeedIsSixDigitTOTPEveryThirtySeconds() throws {
        let parsed = try OneTimeCodeSecret(parsing: Self.secret("gezd gnbv gy3t qojq gezd gnbv gy3t qojq\n"))
        #expect(parsed.kind == .totp(period: 30))
        #expect(parsed.digest == .sha1)
        #expect(parsed.code(atUnixTime: 59) == "287082")
    }

    @Test func hotpAdvancesItsCounterAndKeepsTheRest() throws {
        let uri = "otpauth://hotp/ACME%20Co:bob?issuer=ACME&secret=\(Self.seeds[.sha1]!)&counter=7&digits=6"
        let parsed = try OneTimeCodeSecret(parsing: Self.secret(uri))
        #expect(parsed.code(atUnixTime: 0) == Self.hotpVectors[7])
        let next = try #require(parsed.advanced())
        #expect(next.copyBytes() == Array(uri.replacing("counter=7", with: "counter=8").utf8))
        #expect(try OneTimeCodeSecret(parsing: next).code(atUnixTime: 0) == Self.hotpVectors[8])
        #expect(try OneTimeCodeSecret(parsing: Self.secret("otpauth://totp/x?secret=GEZDGNBVGY3TQOJQ")).advanced() == nil)
    }

    @Test func badSecretsAreRefusedByName() {
        let cases: [(String, OneTimeCodeError)] = [
            ("hunter2!", .notOneTimeCode),
            ("", .notOneTimeCode),
            ("abcdefgh", .keyTooShort),
            ("otpauth://totp/x?secret=GEZDGNBVGY3TQOJ", .keyTooShort),
            ("otpauth://totp/x?issuer=a", .missingSecret),
            ("otpauth://totp/x?secret=GEZ1", .secretNotBase32),
            ("otpauth://totp/x?secret=GEZDGNBVGY3TQOJQ&algorithm=MD5", .algorithm),
            ("otpauth://totp/x?secret=GEZDGNBVGY3TQOJQ&digits=9", .digits),
            ("otpauth://totp/x?secret=GEZDGNBVGY3TQOJQ&digits=5", .digits),
            ("otpauth://totp/x?secret=GEZDGNBVGY3TQOJQ&period=0", .period),
            ("otpauth://hotp/x?secret=GEZDGNBVGY3TQOJQ", .counter),
            ("otpauth://hotp/x?secret=GEZDGNBVGY3TQOJQ&counter=-1", .counter),
            ("otpauth://motp/x?secret=GEZDGNBVGY3TQOJQ", .type)
        ]
        for (text, expected) in cases {
            #expect(throws: expected, "\(text)") { try OneTimeCodeSecret(parsing: Self.secret(text)) }
        }
    }
}
