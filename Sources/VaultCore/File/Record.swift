import FoundationEssentials
import VaultCrypto

/// One sealed record: the item's attributes and secret, encrypted with
/// AES-256-GCM under its own record key, bound by AAD to the vault, its
/// record id, group, class and the format version.
enum RecordCodec {
    private enum Tag: UInt8 {
        case service = 1, account, label, comment, kind, generic, created, modified, expires, secret, envName, revision, conflict
        case notes, oneTimeCode

        init(_ field: SealedField) {
            switch field {
            case .notes: self = .notes
            case .oneTimeCode: self = .oneTimeCode
            }
        }
    }

    /// The largest record plaintext written: the oldest revisions go first to stay under it.
    static let maxPlaintextBytes = VaultFile.maxRecordBytes - 1024

    /// The plaintext of a record: tag, u32 length, value — the attributes, the sealed fields, the
    /// other versions of a merge conflict, its earlier secrets (newest first, as many as fit under
    /// `maxPlaintextBytes`), then the secret last.
    static func encodePlaintext(_ item: Item, history: [SecretRevision] = [], conflicts: [ItemConflict] = []) -> SecretBytes {
        let secret = item.secret
        var w = ByteWriter(capacity: 256)
        defer { w.wipeBytes() }
        encodeAttributes(item.attributes, into: &w)
        encodeFields(item.fields, into: &w)
        for conflict in conflicts { encode(conflict, into: &w) }
        var room = maxPlaintextBytes - w.bytes.count - 5 - secret.count
        for revision in history {
            // u64 set at ms ‖ u64 replaced at ms ‖ the secret
            let size = 5 + 16 + revision.secret.count
            guard size <= room else { break }
            room -= size
            w.u8(Tag.revision.rawValue)
            w.u32(UInt32(16 + revision.secret.count))
            w.u64(UInt64(bitPattern: milliseconds(revision.setAt)))
            w.u64(UInt64(bitPattern: milliseconds(revision.replacedAt)))
            revision.secret.withUnsafeBytes { w.raw($0) }
        }
        w.u8(Tag.secret.rawValue)
        w.u32(UInt32(secret.count))
        let head = w.bytes
        let plaintext = SecretBytes(count: head.count + secret.count)
        plaintext.withUnsafeMutableBytes { out in
            out.copyBytes(from: head)
            secret.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: out[head.count...]).copyMemory(from: $0) }
        }
        return plaintext
    }

    /// The attribute fields of a record, without the secret: what a listing block holds per item.
    static func encodeAttributes(_ attributes: ItemAttributes, into w: inout ByteWriter) {
        func text(_ tag: Tag, _ value: String?) {
            guard let value else { return }
            w.u8(tag.rawValue)
            w.lengthPrefixed(Array(value.utf8))
        }
        func date(_ tag: Tag, _ value: Date?) {
            guard let value else { return }
            w.u8(tag.rawValue)
            w.u32(8)
            w.u64(UInt64(bitPattern: milliseconds(value)))
        }
        text(.service, attributes.service)
        text(.account, attributes.account)
        text(.label, attributes.details.label)
        text(.comment, attributes.details.comment)
        text(.kind, attributes.details.kind)
        text(.generic, attributes.details.generic)
        text(.envName, attributes.details.envName)
        date(.created, attributes.created)
        date(.modified, attributes.modified)
        date(.expires, attributes.details.expires)
    }

    /// The sealed fields (notes 14, one-time code 15): secrets, so never in a listing block.
    private static func encodeFields(_ fields: SealedFields, into w: inout ByteWriter) {
        for (field, value) in fields.present {
            w.u8(Tag(field).rawValue)
            w.u32(UInt32(value.count))
            value.withUnsafeBytes { w.raw($0) }
        }
    }

    /// A conflict field: u8 current side ‖ u32-prefixed origin ‖ u8 what follows: 0 nothing (the other
    /// side deleted the item), 1 the other version (u8 class ‖ u32-prefixed group ‖ u32-prefixed
    /// attribute fields ‖ its secret), 2 the other version sealed under another (group, class)'s keys
    /// (u32 group id ‖ u8 class ‖ record id (16) ‖ the sealed record).
    private static func encode(_ conflict: ItemConflict, into w: inout ByteWriter) {
        var field = ByteWriter(capacity: 128)
        defer { field.wipeBytes() }
        field.u8(conflict.currentSide.rawValue)
        field.lengthPrefixed(Array(conflict.origin.utf8))
        if let other = conflict.other {
            field.u8(1)
            field.u8(other.attributes.accessibility.fileID.rawValue)
            field.lengthPrefixed(Array(other.attributes.group.name.utf8))
            var attributes = ByteWriter(capacity: 128)
            defer { attributes.wipeBytes() }
            encodeAttributes(other.attributes, into: &attributes)
            encodeFields(other.fields, into: &attributes)
            field.lengthPrefixed(attributes.bytes)
            other.secret.withUnsafeBytes { field.raw($0) }
        } else if let elsewhere = conflict.sealedElsewhere {
            field.u8(2)
            field.groupID(elsewhere.groupID)
            field.classID(elsewhere.classID)
            field.raw(elsewhere.recordID)
            field.raw(elsewhere.sealed)
        } else {
            field.u8(0)
        }
        w.u8(Tag.conflict.rawValue)
        w.lengthPrefixed(field.bytes)
    }

    /// The conflict fields of a record's plaintext, in order.
    static func decodeConflicts(_ plaintext: SecretBytes) throws -> [ItemConflict] {
        var conflicts: [ItemConflict] = []
        try forEachField(of: plaintext, tagged: .conflict) { value in
            var field = Array(value)
            defer { field.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) } }
            var r = ByteReader(field)
            guard let side = MergeSide(rawValue: try r.u8()) else { throw MalformedInput(.violates(.conflictUnknownSide)) }
            let origin = try text(r.lengthPrefixed(limit: field.count))
            switch try r.u8() {
            case 0:
                conflicts.append(ItemConflict(currentSide: side, other: nil, origin: origin))
                return
            case 1:
                break
            case 2:
                var conflict = ItemConflict(currentSide: side, other: nil, origin: origin)
                conflict.sealedElsewhere = SealedVersion(
                    groupID: try r.groupID(), classID: try r.classID(), recordID: Array(try r.raw(16)),
                    sealed: Array(try r.raw(r.remaining)))
                conflicts.append(conflict)
                return
            default:
                throw MalformedInput(.violates(.conflictUnknownKind))
            }
            guard let accessibility = Accessibility(fileID: ClassID(try r.u8())),
                let group = AccessGroup(try text(r.lengthPrefixed(limit: field.count)))
            else {
                throw MalformedInput(.violates(.conflictUnknownClassOrGroup))
            }
            var attributes = Array(try r.lengthPrefixed(limit: field.count))
            defer { attributes.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) } }
            let listed = try attributes.withUnsafeBytes {
                try decode($0, group: group, accessibility: accessibility, copyingSecrets: true, secretRequired: false)
            }
            let secret = SecretBytes(try r.raw(r.remaining))
            conflicts.append(
                ItemConflict(
                    currentSide: side, other: Item(attributes: listed.attributes, secret: secret, fields: listed.fields),
                    origin: origin))
        }
        return conflicts
    }

    /// Whether a record's plaintext holds a conflict field.
    static func hasConflicts(_ plaintext: SecretBytes) throws -> Bool {
        var found = false
        try forEachField(of: plaintext, tagged: .conflict) { _ in found = true }
        return found
    }

    private static func text(_ bytes: ArraySlice<UInt8>) throws -> String {
        guard let string = String(validating: bytes, as: UTF8.self) else { throw MalformedInput(.violates(.attributeNotUTF8)) }
        return string
    }

    /// Calls `body` with the value of every field of one tag, in order, where it lies in the plaintext.
    private static func forEachField(of plaintext: SecretBytes, tagged tag: Tag, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        try plaintext.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                guard bytes.count - offset >= 5 else { throw MalformedInput(.violates(.recordEndsInField)) }
                let length = Int(UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset + 1, as: UInt32.self)))
                let start = offset + 5
                guard length <= bytes.count - start else { throw MalformedInput(.violates(.fieldOverrunsRecord)) }
                if bytes[offset] == tag.rawValue { try body(UnsafeRawBufferPointer(rebasing: bytes[start..<start + length])) }
                offset = start + length
            }
        }
    }

    private static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    /// The earlier secrets a record's plaintext keeps, newest first.
    static func decodeHistory(_ plaintext: SecretBytes) throws -> [SecretRevision] {
        var revisions: [SecretRevision] = []
        try forEachField(of: plaintext, tagged: .revision) { value in
            guard value.count >= 16 else { throw MalformedInput(.count(.revisionFieldBytes, value.count)) }
            func date(at position: Int) -> Date {
                let millis = Int64(bitPattern: UInt64(bigEndian: value.loadUnaligned(fromByteOffset: position, as: UInt64.self)))
                return Date(timeIntervalSince1970: Double(millis) / 1000)
            }
            revisions.append(
                SecretRevision(
                    secret: SecretBytes(UnsafeRawBufferPointer(rebasing: value[16...])),
                    setAt: date(at: 0), replacedAt: date(at: 8)))
        }
        return revisions
    }

    /// Parses a record's plaintext. Unknown tags are skipped, so a later
    /// version may add attributes.
    static func decodePlaintext(_ plaintext: SecretBytes, group: AccessGroup, accessibility: Accessibility) throws -> Item {
        let decoded = try decode(plaintext, group: group, accessibility: accessibility, copyingSecrets: true)
        return Item(attributes: decoded.attributes, secret: decoded.secret!, fields: decoded.fields)
    }

    /// Parses a record's plaintext as `decodePlaintext` does, but leaves the secret
    /// and sealed fields uncopied (the secret must still be there): what listing and matching need.
    static func decodeAttributes(_ plaintext: SecretBytes, group: AccessGroup, accessibility: Accessibility) throws -> ItemAttributes {
        try decode(plaintext, group: group, accessibility: accessibility, copyingSecrets: false).attributes
    }

    /// Parses attribute fields with no secret among them (`encodeAttributes`'s output, from a listing block).
    static func decodeListedAttributes(_ bytes: UnsafeRawBufferPointer, group: AccessGroup, accessibility: Accessibility) throws
        -> ItemAttributes
    {
        try decode(bytes, group: group, accessibility: accessibility, copyingSecrets: false, secretRequired: false).attributes
    }

    private typealias Decoded = (attributes: ItemAttributes, secret: SecretBytes?, fields: SealedFields)

    private static func decode(
        _ plaintext: SecretBytes, group: AccessGroup, accessibility: Accessibility,
        copyingSecrets: Bool
    ) throws -> Decoded {
        try plaintext.withUnsafeBytes {
            try decode($0, group: group, accessibility: accessibility, copyingSecrets: copyingSecrets, secretRequired: true)
        }
    }

    /// The attributes, and with `copyingSecrets` copies of the secret and the sealed fields.
    private static func decode(
        _ bytes: UnsafeRawBufferPointer, group: AccessGroup, accessibility: Accessibility,
        copyingSecrets: Bool, secretRequired: Bool
    ) throws -> Decoded {
        do {
            var service, account, label, comment, kind, generic, envName: String?
            var created, modified, expires: Date?
            var secret: SecretBytes?
            var fields = SealedFields()
            var hasSecret = false
            var offset = 0
            func u32(at position: Int) throws -> Int {
                guard position + 4 <= bytes.count else { throw MalformedInput(.violates(.recordEndsInField)) }
                return (0..<4).reduce(0) { $0 << 8 | Int(bytes[position + $1]) }
            }
            while offset < bytes.count {
                let rawTag = bytes[offset]
                let length = try u32(at: offset + 1)
                let start = offset + 5
                guard length <= bytes.count - start else { throw MalformedInput(.violates(.fieldOverrunsRecord)) }
                let value = UnsafeRawBufferPointer(rebasing: bytes[start..<start + length])
                func text() throws -> String {
                    let bytes = value.assumingMemoryBound(to: UInt8.self)
                    // ASCII, as names almost always are, is well-formed; other text is validated.
                    if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
                    guard let string = String(validating: bytes, as: UTF8.self) else {
                        throw MalformedInput(.violates(.attributeNotUTF8))
                    }
                    return string
                }
                func date() throws -> Date {
                    guard length == 8 else { throw MalformedInput(.count(.dateFieldBytes, length)) }
                    let millis = Int64(bitPattern: value.reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
                    return Date(timeIntervalSince1970: Double(millis) / 1000)
                }
                switch Tag(rawValue: rawTag) {
                case .secret?:
                    hasSecret = true
                    secret = copyingSecrets ? SecretBytes(value) : nil
                case .notes? where copyingSecrets: fields[.notes] = SecretBytes(value)
                case .oneTimeCode? where copyingSecrets: fields[.oneTimeCode] = SecretBytes(value)
                case .service?: service = try text()
                case .account?: account = try text()
                case .label?: label = try text()
                case .comment?: comment = try text()
                case .kind?: kind = try text()
                case .generic?: generic = try text()
                case .envName?: envName = try text()
                case .created?: created = try date()
                case .modified?: modified = try date()
                case .expires?: expires = try date()
                case .revision?, .conflict?, .notes?, .oneTimeCode?, nil:
                    break
                }
                offset = start + length
            }
            guard let service, let account, hasSecret || !secretRequired, let created, let modified else {
                throw MalformedInput(.violates(.recordLacksField))
            }
            let details = ItemDetails(label: label, comment: comment, kind: kind, generic: generic, envName: envName, expires: expires)
            let attributes = ItemAttributes(
                service: service, account: account, group: group, accessibility: accessibility,
                details: details, created: created, modified: modified)
            return (attributes, secret, fields)
        }
    }
}
