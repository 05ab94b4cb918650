import FoundationEssentials
import VaultCrypto

/// A scoped credential (`vault grant`): the keys of some access groups of one
/// vault and nothing else, so a CI job can read those groups' items without
/// the master passphrase. It holds each group's base keys, lookup key and key
/// check — never a group key, class key, the header MAC key or the master
/// key — so the other groups' records cannot be decrypted with anything it
/// holds, and the header cannot be changed with it. A read-only credential
/// also leaves out the index MAC keys: a change to its groups' index would
/// fail the owner's checks. The text form is
/// `vault-credential-v1:` + base64 of the payload in docs/FORMAT.md.
public struct ScopedCredential: Sendable {
    /// How the text form of a credential starts.
    package static let textPrefix = "vault-credential-v1:"
    static let magic = Array("VCRD".utf8)
    /// The payload versions read: 1 from a format v1 vault, 2 from a v2 one (its write keys are v2's).
    static let versions: ClosedRange<UInt8> = 1...2
    static let maxGroups = 64
    static let checksumSize = 16
    /// 9999-12-31T23:59:59Z: dates beyond are refused.
    static let maxDateSeconds: Int64 = 253_402_300_799

    /// The vault this credential belongs to.
    package let vaultID: [UInt8]
    /// Whether it says it may only read. What it may do is decided by the keys it
    /// holds (`canWrite`), not by this flag, which anyone can flip in a copy.
    package let readOnly: Bool
    /// When it was granted.
    package let issued: Date
    /// When it stops working; nil for never.
    package let expires: Date?
    let grants: [GroupGrant]
    /// The format version of the vault it was granted from: its index MAC keys are that version's,
    /// so on a converted vault a credential from before the conversion reads but cannot write.
    let payloadVersion: UInt8
    /// The member whose slot gave these keys, when they came from an identity (`vault member add`), not a credential file.
    package var memberName: String? = nil

    /// The keys a scoped member's slot carries, as a credential of the file's version that never expires.
    static func member(name: String, vaultID: [UInt8], readOnly: Bool, grants: [GroupGrant]) -> ScopedCredential {
        ScopedCredential(
            vaultID: vaultID, readOnly: readOnly, issued: Date(timeIntervalSince1970: 0), expires: nil,
            grants: grants, payloadVersion: UInt8(VaultFile.keySchedule(of: VaultFile.version)), memberName: name)
    }

    /// Whether it holds the write key (index MAC key) of every group it covers:
    /// what a change needs. A flipped read-only flag does not give it one.
    package var canWrite: Bool { grants.allSatisfy { $0.indexMACKey != nil } }

    /// The groups it opens, in the order granted.
    package var groups: [AccessGroup] { grants.map(\.group) }

    /// Whether it has expired at `date`.
    package func hasExpired(at date: Date) -> Bool {
        expires.map { date >= $0 } ?? false
    }

    // MARK: text form

    /// The text written to a credential file: one line.
    package func encoded() -> String {
        var w = payload()
        defer { w.wipeBytes() }
        return ScopedCredential.textPrefix + Base64.encode(w.bytes) + "\n"
    }

    /// Its id in the grant ledger (`vault grant --list`), in hex: the first 8 bytes of its checksum,
    /// so the file itself names the grant it came from.
    package var grantID: String { hex(ledgerID) }

    /// The grant id's bytes.
    var ledgerID: [UInt8] {
        var w = payload()
        defer { w.wipeBytes() }
        return Array(w.bytes.suffix(ScopedCredential.checksumSize).prefix(GrantRecord.idSize))
    }

    /// The payload, its checksum last.
    private func payload() -> ByteWriter {
        var w = ByteWriter(capacity: 128 + grants.count * 200)
        w.raw(ScopedCredential.magic)
        w.u8(payloadVersion)
        w.raw(vaultID)
        w.u8(readOnly ? 1 : 0)
        w.u64(UInt64(bitPattern: Int64(issued.timeIntervalSince1970.rounded(.down))))
        w.u64(UInt64(bitPattern: Int64(expires?.timeIntervalSince1970.rounded(.down) ?? 0)))
        w.u8(UInt8(grants.count))
        for grant in grants { grant.encode(into: &w) }
        w.raw(SHA256.hash(w.bytes).prefix(ScopedCredential.checksumSize))
        return w
    }

    /// Parses the text of a credential (surrounding whitespace allowed). Throws
    /// `damagedCredential` naming `source` for anything that is not an intact credential.
    package static func decode(_ text: String, source: String) throws -> ScopedCredential {
        let words = text.split(whereSeparator: \.isWhitespace)
        guard words.count == 1, let trimmed = words.first, trimmed.hasPrefix(textPrefix) else {
            throw VaultError.damagedCredential(source: source, detail: .missingPrefix(textPrefix))
        }
        guard let bytes = Base64.decode(String(trimmed.dropFirst(textPrefix.count))) else {
            throw VaultError.damagedCredential(source: source, detail: .violates(.notBase64))
        }
        do {
            return try decode(bytes)
        } catch let error as MalformedInput {
            throw VaultError.damagedCredential(source: source, detail: error.damage)
        }
    }

    static func decode(_ bytes: [UInt8]) throws -> ScopedCredential {
        guard bytes.count > checksumSize else { throw MalformedInput(.violates(.credentialTooShort)) }
        let payload = Array(bytes.dropLast(checksumSize))
        guard constantTimeEquals(Array(SHA256.hash(payload).prefix(checksumSize)), Array(bytes.suffix(checksumSize))) else {
            throw MalformedInput(.violates(.credentialChecksumMismatch))
        }
        var r = ByteReader(payload)
        guard Array(try r.raw(magic.count)) == magic else { throw MalformedInput(.notA(.credential)) }
        let version = try r.u8()
        guard versions.contains(version) else {
            throw MalformedInput(
                .unsupportedVersion(.credential, found: Int(version), reads: Int(versions.lowerBound)...Int(versions.upperBound)))
        }
        let vaultID = Array(try r.raw(VaultFile.idSize))
        let flags = try r.u8()
        guard flags <= 1 else { throw MalformedInput(.violates(.unknownFlags)) }
        let issuedSeconds = Int64(bitPattern: try r.u64())
        let expiresSeconds = Int64(bitPattern: try r.u64())
        guard (0...maxDateSeconds).contains(issuedSeconds), (0...maxDateSeconds).contains(expiresSeconds) else {
            throw MalformedInput(.violates(.dateOutOfRange))
        }
        let issued = Date(timeIntervalSince1970: Double(issuedSeconds))
        let count = Int(try r.u8())
        guard (1...maxGroups).contains(count) else { throw MalformedInput(.count(.groups, count)) }
        var grants: [GroupGrant] = []
        for _ in 0..<count { grants.append(try GroupGrant.decode(from: &r)) }
        guard r.isAtEnd else { throw MalformedInput(.trailingBytes(after: .lastCredentialGroup)) }
        guard Set(grants.map(\.groupID)).count == grants.count else { throw MalformedInput(.violates(.repeatedGroup)) }
        return ScopedCredential(
            vaultID: vaultID, readOnly: flags == 1, issued: issued,
            expires: expiresSeconds == 0 ? nil : Date(timeIntervalSince1970: Double(expiresSeconds)),
            grants: grants, payloadVersion: version)
    }

    // MARK: files

    /// Reads a credential file, refusing one readable by group or others.
    package static func read(path: String) throws -> ScopedCredential {
        let bytes = try FileSystem.read(path, kind: .credential, requirePrivate: true)
        guard bytes.count <= 64 * 1024, let text = String(validating: bytes, as: UTF8.self) else {
            throw VaultError.damagedCredential(source: path, detail: .notA(.credentialFile))
        }
        return try decode(text, source: path)
    }

    /// Writes the credential to a new file, 0600, failing if `path` exists.
    package func write(to path: String) throws {
        try FileSystem.createExclusive(Array(encoded().utf8), at: path)
    }
}
