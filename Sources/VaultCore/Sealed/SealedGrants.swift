import VaultCrypto

/// Group grants sealed in a machine-local file: the after-first-unlock cache
/// and this device's grants share this layout — magic ‖ AES-GCM(key, u32
/// count ‖ the grants, AAD = magic ‖ vault id). The grants carry lookup and
/// base keys only, never a group's write key or the header MAC key: whoever
/// steals one can read what it opens, not forge what the owner checks.
/// `Storage/UnlockCaches` reads and writes the files.
enum SealedGrants {
    /// The file's bytes: one grant per group of `file` (its `classes`' base keys) from a full ring, sealed under `key`.
    static func seal(from keys: KeyRing, file: VaultFile, classes: [Accessibility], magic: [UInt8], key: SecretBytes) throws -> [UInt8] {
        var w = ByteWriter()
        defer { w.wipeBytes() }
        w.u32(UInt32(file.groups.count))
        for entry in file.groups {
            try GroupGrant.of(entry.groupID, in: keys, keyCheck: entry.keyCheck, classes: classes, writable: false).encode(into: &w)
        }
        return magic + (try AESGCM.seal(w.bytes, key: key, aad: AAD.sealedGrants(magic: magic, vaultID: keys.vaultID)))
    }

    /// The grants in `bytes`, or nil when they are not a file of `magic` that opens with `key` and parses.
    static func open(_ bytes: [UInt8], magic: [UInt8], key: SecretBytes, vaultID: [UInt8]) -> [GroupGrant]? {
        guard bytes.count > magic.count, Array(bytes[0..<magic.count]) == magic,
            let plaintext = try? AESGCM.open(Array(bytes[magic.count...]), key: key, aad: AAD.sealedGrants(magic: magic, vaultID: vaultID))
        else { return nil }
        var reader = ByteReader(plaintext.copyBytes())
        guard let count = try? reader.u32() else { return nil }
        var grants: [GroupGrant] = []
        for _ in 0..<count {
            // A machine-local grant never holds a group's write key: one that does is not ours.
            guard let grant = try? GroupGrant.decode(from: &reader), grant.indexMACKey == nil else { return nil }
            grants.append(grant)
        }
        return reader.isAtEnd ? grants : nil
    }
}
