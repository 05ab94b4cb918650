import VaultCrypto

/// An export bundle (`vault export`): items sealed under a key of their own,
/// wrapped in a keyslot of the bundle's own passphrase or key file, so a
/// bundle opens without the vault it came from (docs/FORMAT.md, "Export bundles").
enum ExportBundle {
    static let magic: [UInt8] = [0x89, 0x56, 0x45, 0x58, 0x50, 0x4F, 0x52, 0x54]  // "\x89VEXPORT"
    static let version: UInt16 = 1
    static let maxItems = 10_000_000

    static func seal(_ items: [Item], credential: UnlockSecret, kdf: Scrypt.Parameters) throws -> [UInt8] {
        let bundleID = SecureRandom.bytes(VaultFile.idSize)
        // The bundle's keyslot wraps the bundle key as a vault's keyslot wraps its master key.
        let bundleKey = MasterKey.random()
        var header = ByteWriter()
        header.raw(magic)
        header.u16(version)
        header.raw(bundleID)
        try Keyslot.make(kind: credential.slotKind, secret: credential.secret, kdf: kdf, masterKey: bundleKey, vaultID: bundleID)
            .encode(into: &header)
        let sealed = try AESGCM.seal(encodeBody(items), key: bundleKey.secret, aad: header.bytes)
        return header.bytes + sealed
    }

    /// The items as the sealed part holds them (docs/FORMAT.md, "Export bundles").
    static func encodeBody(_ items: [Item]) -> SecretBytes {
        var body = ByteWriter(capacity: items.count * 256)
        defer { body.wipeBytes() }
        body.u32(UInt32(items.count))
        for item in items {
            body.lengthPrefixed(Array(item.attributes.group.name.utf8))
            body.classID(item.attributes.accessibility.fileID)
            let plaintext = RecordCodec.encodePlaintext(item)
            body.u32(UInt32(plaintext.count))
            plaintext.withUnsafeBytes { body.raw($0) }
        }
        return SecretBytes(body.bytes)
    }

    /// Opens a bundle with its credential. Throws `wrongCredential` for the
    /// wrong passphrase or key file and `MalformedInput` for anything damaged.
    static func open(_ bytes: [UInt8], credential: UnlockSecret) throws -> [Item] {
        var r = ByteReader(bytes)
        guard Array(try r.raw(magic.count)) == magic else { throw MalformedInput(.notA(.exportBundle)) }
        let version = try r.u16()
        guard version == ExportBundle.version else {
            throw MalformedInput(
                .unsupportedVersion(.exportBundle, found: Int(version), reads: Int(ExportBundle.version)...Int(ExportBundle.version)))
        }
        let bundleID = Array(try r.raw(VaultFile.idSize))
        let slot = try Keyslot.decode(from: &r)
        guard slot.kind == credential.slotKind else { throw VaultError.noBundleKeyslot(credential.kind) }
        guard case .opened(let bundleKey) = try slot.open(with: credential.secret, vaultID: bundleID) else {
            throw VaultError.wrongBundleCredential(credential.kind)
        }
        let headerEnd = r.offset
        let body: SecretBytes
        do {
            body = try AESGCM.open(bytes[headerEnd...], key: bundleKey.secret, aad: Array(bytes[..<headerEnd]))
        } catch {
            throw MalformedInput(.doesNotOpen(.bundleItems))
        }
        return try decodeBody(body)
    }

    /// Parses the opened, sealed part: the items. Behind the AES-GCM tag in a
    /// real bundle, so it is fuzzed on its own (Fuzz/Harnesses/ExportBundleBody.swift).
    static func decodeBody(_ body: SecretBytes) throws -> [Item] {
        var reader = ByteReader(body.copyBytes())
        let count = Int(try reader.u32())
        guard count <= maxItems else { throw MalformedInput(.count(.bundleItems, count)) }
        var items: [Item] = []
        for _ in 0..<count {
            guard let name = String(validating: try reader.lengthPrefixed(limit: AccessGroup.maxLength), as: UTF8.self),
                let group = AccessGroup(name),
                let accessibility = Accessibility(fileID: try reader.classID()), !accessibility.isDeviceBound
            else {
                throw MalformedInput(.violates(.bundleItemGroupOrClass))
            }
            let plaintext = SecretBytes(try reader.lengthPrefixed(limit: VaultFile.maxRecordBytes))
            items.append(try RecordCodec.decodePlaintext(plaintext, group: group, accessibility: accessibility))
        }
        guard reader.isAtEnd else { throw MalformedInput(.trailingBytes(after: .lastBundleItem)) }
        return items
    }
}
