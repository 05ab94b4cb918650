import Foundation
import Testing
@testable import VaultCore
import VaultCrypto

/// age's encodings of X25519 keys: Bech32 (BIP 173, not Bech32m), recipients
/// `age1…`, identities `AGE-SECRET-KEY-1…`, and what is refused by name.
@Suite struct IdentityTests {
    /// BIP 173's valid test strings decode and encode back; its invalid ones, Bech32m, mixed case and a flipped character do not decode.
    @Test func bech32FollowsBIP173() throws {
        for valid in [
            "A12UEL5L", "a12uel5l", "abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw",
            "split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w",
            "an83characterlonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1tt5tgs"
        ] {
            let decoded = try Bech32.decode(Array(valid.utf8))
            let upper = valid.first!.isUppercase
            #expect(Bech32.encode(hrp: decoded.hrp, data: decoded.data, upper: upper) == Array(valid.utf8), "\(valid)")
        }
        #expect(throws: Bech32.Failure.badChecksum) { try Bech32.decode(Array("a1lqfn3a".utf8)) }  // BIP 350's Bech32m
        #expect(throws: Bech32.Failure.mixedCase) { try Bech32.decode(Array("A12uEL5L".utf8)) }
        #expect(throws: Bech32.Failure.badChecksum) { try Bech32.decode(Array("a12uel5m".utf8)) }
        #expect(throws: Bech32.Failure.noSeparator) { try Bech32.decode(Array("pzry9x0s0muk".utf8)) }
        #expect(throws: Bech32.Failure.badCharacter) { try Bech32.decode(Array("x1b4n0q5v".utf8)) }
    }

    /// RFC 7748 section 6.1: both sides' public keys and their shared secret.
    @Test func x25519MatchesRFC7748() throws {
        let alice = SecretBytes(hex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"))
        let bob = SecretBytes(hex("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb"))
        #expect(try X25519.publicKey(of: alice) == hex("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a"))
        let bobPublic = try X25519.publicKey(of: bob)
        #expect(bobPublic == hex("de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f"))
        let shared = hex("4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742")
        #expect(try X25519.sharedSecret(privateKey: alice, peer: bobPublic).copyBytes() == shared)
        #expect(try X25519.sharedSecret(privateKey: bob, peer: try X25519.publicKey(of: alice)).copyBytes() == shared)
    }

    /// A low-order public key gives an all-zero secret, which OpenSSL refuses: it never becomes a key.
    @Test func aLowOrderPointIsRefused() throws {
        let mine = SecretBytes(random: 32)
        for point in [[UInt8](repeating: 0, count: 32), [1] + [UInt8](repeating: 0, count: 31)] {
            #expect(throws: CryptoError.self) { try X25519.sharedSecret(privateKey: mine, peer: point) }
        }
    }

    /// A new identity's text parses back to the same key and recipient, and its recipient text to the same public key.
    @Test func identitiesAndRecipientsRoundTrip() throws {
        let identity = try AgeIdentity.generate()
        let text = identity.encoded.copyBytes()
        #expect(text.starts(with: Array("AGE-SECRET-KEY-1".utf8)) && text.count == 74)
        let parsed = try AgeIdentity.parseAll(SecretBytes(Array("# a comment\n\n".utf8) + text + [10]), source: "test")
        #expect(parsed.count == 1 && parsed[0].privateKey.constantTimeEquals(identity.privateKey))
        #expect(parsed[0].recipient == identity.recipient)
        let recipient = identity.recipient.description
        #expect(recipient.hasPrefix("age1") && recipient.count == 62)
        #expect(try AgeRecipient(parsing: " \(recipient)\n") == identity.recipient)
    }

    /// What is not an age X25519 key is refused by what it is, and an identity's text is never repeated in the message.
    @Test func otherKindsAreRefusedByName() throws {
        let plugin = String(decoding: Bech32.encode(hrp: Array("age1yubikey".utf8), data: [UInt8](repeating: 7, count: 33)), as: UTF8.self)
        let postQuantum = String(decoding: Bech32.encode(hrp: Array("age1pq".utf8), data: [UInt8](repeating: 7, count: 40)), as: UTF8.self)
        let cases: [(String, RecipientProblem)] = [
            (plugin, .plugin(name: "yubikey")), (postQuantum, .postQuantum),
            ("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHp7 user@host", .sshKey), ("age1notreally", .notAgeRecipient)
        ]
        for (text, named) in cases {
            #expect { try AgeRecipient(parsing: text) } throws: { error in
                guard case VaultError.identity(.invalidRecipient(_, let reason)) = error else { return false }
                return reason == named
            }
        }
        let identity = try AgeIdentity.generate().encoded.copyBytes()
        var flipped = identity
        flipped[30] = flipped[30] == UInt8(ascii: "Q") ? UInt8(ascii: "P") : UInt8(ascii: "Q")
        let lines: [(String, IdentityProblem)] = [
            ("AGE-PLUGIN-YUBIKEY-1QQQQQQ", .plugin), ("AGE-SECRET-KEY-PQ-1QQQQQQ", .postQuantum),
            ("-----BEGIN OPENSSH PRIVATE KEY-----", .sshKey), (String(decoding: flipped, as: UTF8.self), .notAgeIdentity),
            (String(decoding: identity, as: UTF8.self).lowercased(), .notAgeIdentity)
        ]
        for (line, named) in lines {
            #expect { try AgeIdentity.parseAll(SecretBytes(Array(("# first\n" + line).utf8)), source: "test") } throws: { error in
                guard case VaultError.identity(.invalidIdentity("test", 2, let reason)) = error else { return false }
                return reason == named
            }
        }
        #expect(throws: VaultError.invalidIdentity(source: "test", line: nil, reason: .noIdentity)) {
            try AgeIdentity.parseAll(SecretBytes(Array("# only a comment\n".utf8)), source: "test")
        }
    }

    private func hex(_ text: String) -> [UInt8] {
        stride(from: 0, to: text.count, by: 2).map { UInt8(text.dropFirst($0).prefix(2), radix: 16)! }
    }
}
