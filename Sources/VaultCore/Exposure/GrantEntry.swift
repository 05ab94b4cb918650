import FoundationEssentials

/// One credential `vault grant` made, as the grant ledger records it (`vault grant --list`).
package struct GrantEntry: Sendable, Equatable {
    /// Its id: the first 8 bytes of the credential's checksum, in hex.
    package let id: String
    /// The groups it opens, as named when it was granted.
    package let groups: [AccessGroup]
    /// Whether it was granted read-only.
    package let readOnly: Bool
    /// When it was granted.
    package let issued: Date
    /// When it stops working in vault; nil for never. Its keys still open what is sealed under them.
    package let expires: Date?
    /// When a re-key of one of its groups (`revoke`, `rekey`, a member's removal) ended it; nil while none has.
    package let revoked: Date?
    /// Each group's id and the key check of the group key it holds: what it opens in a version of the file.
    let keyChecks: [GroupID: [UInt8]]

    /// Whether `text` has a grant id's shape: 16 hex digits.
    package static func isID(_ text: String) -> Bool {
        text.utf8.count == GrantRecord.idSize * 2 && text.utf8.allSatisfy { $0.isHexDigit }
    }

    /// Whether it is live, revoked or expired at `date`.
    package func state(at date: Date) -> GrantState {
        if revoked != nil { return .revoked }
        if let expires, date >= expires { return .expired }
        return .live
    }

    init(_ record: GrantRecord) {
        id = hex(record.id)
        groups = record.groups.compactMap { AccessGroup($0.name) }
        readOnly = record.readOnly
        issued = Date(timeIntervalSince1970: Double(record.issued))
        expires = record.expires == 0 ? nil : Date(timeIntervalSince1970: Double(record.expires))
        revoked = record.revoked == 0 ? nil : Date(timeIntervalSince1970: Double(record.revoked))
        keyChecks = Dictionary(record.groups.map { ($0.groupID, $0.keyCheck) }, uniquingKeysWith: { first, _ in first })
    }
}

/// Whether a granted credential still opens the vault in vault.
package enum GrantState: String, Sendable {
    /// Neither revoked nor expired.
    case live
    /// A re-key of one of its groups ended it: its keys open nothing sealed after.
    case revoked
    /// Past its expiry: vault refuses it, though its keys still open what is sealed under them.
    case expired
}

private extension UInt8 {
    var isHexDigit: Bool { (48...57).contains(self) || (65...70).contains(self) || (97...102).contains(self) }
}
