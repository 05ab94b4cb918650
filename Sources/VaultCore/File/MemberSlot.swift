import VaultCrypto

/// A public-key keyslot in the header: a member's keys sealed to its age X25519
/// recipient, the shape of age's X25519 stanza with the vault id bound in
/// (docs/FORMAT.md, "Member slots"). The key part opens with the member's
/// identity; the roster part (name, recipient, scope) opens with the wrap key,
/// so only the owner can list members, and the file does not publish them.
struct MemberSlot: Equatable {
    /// The most member slots a header holds.
    static let maxMembers = 64
    /// AES-GCM's nonce and tag around every sealed part.
    static let sealOverhead = 12 + 16
    /// A scoped key part: name, kind, flags and up to 64 group grants of every class (under 400 bytes each).
    static let maxKeyPartBytes = 32 * 1024
    /// Name, recipient text, date, kind, flag and up to 64 group ids.
    static let maxRosterPartBytes = 1024

    /// A fresh X25519 public key per write of the slot.
    var ephemeralShare: [UInt8]
    /// `AES-GCM(WMK, payload, AAD = "member" ‖ vault id ‖ ephemeral share)`.
    var keyPart: [UInt8]
    /// `AES-GCM(WK, roster entry, AAD = "member info" ‖ vault id ‖ ephemeral share)`.
    var rosterPart: [UInt8]

    /// ephemeral share (32) ‖ bytes(key part) ‖ bytes(roster part).
    func encode(into w: inout ByteWriter) {
        w.raw(ephemeralShare)
        w.lengthPrefixed(keyPart)
        w.lengthPrefixed(rosterPart)
    }

    /// Throws `MalformedInput` for a part shorter than a seal or longer than its limit.
    static func decode(from r: inout ByteReader) throws -> MemberSlot {
        let share = Array(try r.raw(X25519.keySize))
        let keyPart = Array(try r.lengthPrefixed(limit: maxKeyPartBytes))
        let rosterPart = Array(try r.lengthPrefixed(limit: maxRosterPartBytes))
        guard keyPart.count > sealOverhead, rosterPart.count > sealOverhead else {
            throw MalformedInput(.violates(.memberSlotPartShorterThanSeal))
        }
        return MemberSlot(ephemeralShare: share, keyPart: keyPart, rosterPart: rosterPart)
    }
}

/// What a member slot's key part carries: the header MAC key and the wrap key (a full member:
/// all the master key gives but the trust key), or the grants of some groups as `vault grant`
/// gives them (a scoped member).
enum MemberKeys {
    case full(FullMemberKeys)
    case scoped(readOnly: Bool, grants: [GroupGrant])

    static let fullKind: UInt8 = 1
    static let scopedKind: UInt8 = 2

    /// bytes(name) ‖ u8 kind ‖ HMK (32) ‖ WK (32), or ‖ u8 read-only ‖ u32 count ‖ the grants (`GroupGrant`'s codec).
    func encoded(name: String) -> ByteWriter {
        var w = ByteWriter(capacity: 512)
        w.lengthPrefixed(Array(name.utf8))
        switch self {
        case .full(let keys):
            w.u8(MemberKeys.fullKind)
            w.raw(keys.headerMACKey.secret.copyBytes())
            w.raw(keys.wrapKey.secret.copyBytes())
        case .scoped(let readOnly, let grants):
            w.u8(MemberKeys.scopedKind)
            w.u8(readOnly ? 1 : 0)
            w.u32(UInt32(grants.count))
            for grant in grants { grant.encode(into: &w) }
        }
        return w
    }

    /// A whole payload: nothing may follow the keys.
    static func decodeWhole(_ payload: [UInt8]) throws -> (name: String, keys: MemberKeys) {
        var r = ByteReader(payload)
        let decoded = try decode(from: &r)
        guard r.isAtEnd else { throw MalformedInput(.trailingBytes(after: .memberSlotKeys)) }
        return decoded
    }

    static func decode(from r: inout ByteReader) throws -> (name: String, keys: MemberKeys) {
        let name = try r.memberName()
        switch try r.u8() {
        case fullKind:
            let headerMACKey = HeaderMACKey(SecretBytes(try r.raw(AESGCM.keySize)))
            return (name, .full(FullMemberKeys(headerMACKey: headerMACKey, wrapKey: WrapKey(SecretBytes(try r.raw(AESGCM.keySize))))))
        case scopedKind:
            let readOnly = try r.flag()
            let count = Int(try r.u32())
            guard count <= MemberSlot.maxMembers else { throw MalformedInput(.count(.memberGroups, count)) }
            var grants: [GroupGrant] = []
            for _ in 0..<count { grants.append(try GroupGrant.decode(from: &r)) }
            guard count > 0, Set(grants.map(\.groupID)).count == count else {
                throw MalformedInput(.violates(.memberGroupsEmptyOrRepeated))
            }
            return (name, .scoped(readOnly: readOnly, grants: grants))
        default:
            throw MalformedInput(.violates(.unknownMemberKind))
        }
    }
}

/// A member as the roster holds it: who, which recipient, since when, and what it opens.
struct Member: Equatable {
    /// What a member opens.
    enum Scope: Equatable {
        /// Every group: the slot carries the master key.
        case full
        /// Some groups, by id; read-only leaves out their write keys.
        case groups([GroupID], readOnly: Bool)
    }

    /// Unique in the vault; the rules of group names.
    let name: String
    /// What the member's slot is sealed to.
    let recipient: AgeRecipient
    /// When it was added, in milliseconds since 1970.
    let addedAt: Int64
    var scope: Scope

    /// bytes(name) ‖ bytes(recipient text) ‖ u64 added-at ms ‖ u8 kind ‖ u8 read-only ‖ u32 count ‖ u32 group id each.
    func encodedRosterEntry() -> [UInt8] {
        var w = ByteWriter(capacity: 128)
        w.lengthPrefixed(Array(name.utf8))
        w.lengthPrefixed(Array(recipient.description.utf8))
        w.u64(UInt64(bitPattern: addedAt))
        switch scope {
        case .full:
            w.u8(MemberKeys.fullKind)
            w.u8(0)
            w.u32(0)
        case .groups(let ids, let readOnly):
            w.u8(MemberKeys.scopedKind)
            w.u8(readOnly ? 1 : 0)
            w.u32(UInt32(ids.count))
            for id in ids { w.groupID(id) }
        }
        return w.bytes
    }

    static func decodeRosterEntry(from r: inout ByteReader) throws -> Member {
        let name = try r.memberName()
        guard let text = String(validating: try r.lengthPrefixed(limit: 128), as: UTF8.self),
            let recipient = try? AgeRecipient(parsing: text), recipient.description == text
        else {
            throw MalformedInput(.violates(.malformedMemberRecipient))
        }
        let addedAt = Int64(bitPattern: try r.u64())
        let kind = try r.u8()
        let readOnly = try r.flag()
        let count = Int(try r.u32())
        guard count <= MemberSlot.maxMembers else { throw MalformedInput(.count(.memberGroups, count)) }
        var ids: [GroupID] = []
        for _ in 0..<count { ids.append(try r.groupID()) }
        switch kind {
        case MemberKeys.fullKind where count == 0 && !readOnly:
            return Member(name: name, recipient: recipient, addedAt: addedAt, scope: .full)
        case MemberKeys.scopedKind where count > 0 && Set(ids).count == count:
            return Member(name: name, recipient: recipient, addedAt: addedAt, scope: .groups(ids, readOnly: readOnly))
        default:
            throw MalformedInput(.violates(.malformedMemberScope))
        }
    }
}

extension ByteReader {
    /// A length-prefixed member name: UTF-8 that is a valid group name (the same rules).
    mutating func memberName() throws -> String {
        guard let name = String(validating: try lengthPrefixed(limit: AccessGroup.maxLength), as: UTF8.self),
            AccessGroup(name) != nil
        else {
            throw MalformedInput(.violates(.malformedMemberName))
        }
        return name
    }

    /// A byte that must be 0 or 1.
    mutating func flag() throws -> Bool {
        switch try u8() {
        case 0: return false
        case 1: return true
        default: throw MalformedInput(.violates(.flagNotBoolean))
        }
    }
}
