import FoundationEssentials
import VaultCrypto

/// One sealed record: the item's attributes and secret, encrypted with
/// AES-256-GCM under its own record key, bound by AAD to the vault, its
/// record id, group, class and the format version.
enum RecordCodec {
    private enum Tag: UInt8 {
        case service = 1, account, label, comment, kind, generic, created, modified, expires, secret, envName
    }

    /// The plaintext of a record: tag, u32 length, value — secret last.
    static func encodePlaintext(_ attributes: ItemAttributes, secret: SecretBytes) -> SecretBytes {
        var w = ByteWriter(capacity: 256)
        func text(_ tag: Tag, _ value: String?) {
            guard let value else { return }
            w.u8(tag.rawValue)
            w.lengthPrefixed(Array(value.utf8))
        }
        func date(_ tag: Tag, _ value: Date?) {
            guard let value else { return }
            w.u8(tag.rawValue)
            w.u32(8)
            w.u64(UInt64(bitPattern: Int64((value.timeIntervalSince1970 * 1000).rounded())))
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

    /// Parses a record's plaintext. Unknown tags are skipped, so a later
    /// version may add attributes.
    static func decodePlaintext(_ plaintext: SecretBytes, group: AccessGroup, accessibility: Accessibility) throws -> Item {
        try plaintext.withUnsafeBytes { bytes -> Item in
            var texts: [Tag: String] = [:]
            var dates: [Tag: Date] = [:]
            var secret: SecretBytes?
            var offset = 0
            func u32(at position: Int) throws -> Int {
                guard position + 4 <= bytes.count else { throw MalformedInput(detail: "a record ends inside a field") }
                return (0..<4).reduce(0) { $0 << 8 | Int(bytes[position + $1]) }
            }
            while offset < bytes.count {
                let rawTag = bytes[offset]
                let length = try u32(at: offset + 1)
                let start = offset + 5
                guard length <= bytes.count - start else { throw MalformedInput(detail: "a record field overruns the record") }
                let value = UnsafeRawBufferPointer(rebasing: bytes[start..<start + length])
                switch Tag(rawValue: rawTag) {
                case .secret:
                    secret = SecretBytes(value)
                case .created?, .modified?, .expires?:
                    guard length == 8 else { throw MalformedInput(detail: "a date field of \(length) bytes") }
                    let millis = Int64(bitPattern: value.reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
                    dates[Tag(rawValue: rawTag)!] = Date(timeIntervalSince1970: Double(millis) / 1000)
                case let tag?:
                    guard let string = String(validating: value, as: UTF8.self) else {
                        throw MalformedInput(detail: "an attribute that is not UTF-8")
                    }
                    texts[tag] = string
                case nil:
                    break
                }
                offset = start + length
            }
            guard let service = texts[.service], let account = texts[.account], let secret,
                  let created = dates[.created], let modified = dates[.modified] else {
                throw MalformedInput(detail: "a record lacks a required field")
            }
            let details = ItemDetails(label: texts[.label], comment: texts[.comment], kind: texts[.kind],
                                      generic: texts[.generic], envName: texts[.envName], expires: dates[.expires])
            let attributes = ItemAttributes(service: service, account: account, group: group, accessibility: accessibility,
                                            details: details, created: created, modified: modified)
            return Item(attributes: attributes, secret: secret)
        }
    }
}
