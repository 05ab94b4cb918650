import VaultCrypto

/// A key of one role in the file format (docs/FORMAT.md, "Keys"), over the secret bytes that hold
/// it (locked memory, wiped when released: `SecretBytes`). Each role is a type of its own, so a key
/// cannot be passed where another role's is wanted, and each derivation takes its parent's type and
/// gives its child's. Two keys of one role compare in constant time.
protocol TypedKey: Equatable {
    /// The key's bytes, for the primitive that uses them (a seal, a MAC, a derivation).
    var secret: SecretBytes { get }
    init(secret: SecretBytes)
}

extension TypedKey {
    /// The key held in `secret` (not copied).
    init(_ secret: SecretBytes) { self.init(secret: secret) }

    /// A fresh random key of AES-256's size.
    static func random() -> Self { Self(SecretBytes(random: AESGCM.keySize)) }

    /// Whether the two keys' bytes are the same, compared in constant time (CRYPTO_memcmp).
    static func == (a: Self, b: Self) -> Bool { a.secret.constantTimeEquals(b.secret) }
}

/// MK: opens the whole vault; what keyslots and sessions hold. The owner's alone.
struct MasterKey: TypedKey { let secret: SecretBytes }

/// HMK: checks (and so can rewrite) the header.
struct HeaderMACKey: TypedKey { let secret: SecretBytes }

/// WK: wraps the class keys, the group keys, the signing key, the members' roster parts and the team log's payloads.
struct WrapKey: TypedKey { let secret: SecretBytes }

/// TWK: seals the trust key; derived from the master key, so the owner's alone.
struct TrustWrapKey: TypedKey { let secret: SecretBytes }

/// GK[g]: a group's key, what its lookup, index MAC and base keys derive from.
struct GroupKey: TypedKey { let secret: SecretBytes }

/// CK[c]: an accessibility class's key, joined with a group key into the base key of the pair.
struct ClassKey: TypedKey { let secret: SecretBytes }

/// LK[g]: every reader of a group holds it; it makes the lookup tags and derives the read MAC key
/// and the keys of the group's tombstone and trash blocks.
struct LookupKey: TypedKey { let secret: SecretBytes }

/// IMK[g]: a group's write key, which makes (and checks) its index MAC.
struct IndexMACKey: TypedKey { let secret: SecretBytes }

/// RMK[g]: checks a group's read MAC without the write key.
struct ReadMACKey: TypedKey { let secret: SecretBytes }

/// B[g,c]: the base key of a (group, class) pair, what its record and listing keys derive from.
struct BaseKey: TypedKey { let secret: SecretBytes }

/// DK: this machine's device key for one vault (kept by `DeviceKeyStore`, never in the vault file):
/// it seals what opens without an unlock, and is joined into the keys of device-bound items.
struct DeviceKey: TypedKey { let secret: SecretBytes }

/// DWK: seals what the device key alone opens (v1's device copies, the `always` classes' grants).
struct DeviceWrapKey: TypedKey { let secret: SecretBytes }

// MARK: derivations: each from its parent's type to its child's

extension DeviceKey {
    /// DWK = derive(DK, "device wrap").
    func wrapKey(vaultID: [UInt8]) -> DeviceWrapKey {
        DeviceWrapKey(KeyRing.derive(secret, .deviceWrap, [], vaultID: vaultID))
    }

    /// The device check stored in the header: HMAC(DK, "device check" ‖ vault id), which device key
    /// seals the device-bound items.
    func check(vaultID: [UInt8]) -> [UInt8] {
        Array(HMAC.sha256(key: secret, data: KeyLabel.deviceCheck.bytes + vaultID).prefix(VaultFile.checkSize))
    }
}

extension MasterKey {
    /// HMK = derive(MK, "header mac" of the format version): v2 has a label of its own, so the v1
    /// copies sealed under the device key give nothing of v2's.
    func headerMACKey(formatVersion: UInt16, vaultID: [UInt8]) -> HeaderMACKey {
        HeaderMACKey(KeyRing.derive(secret, formatVersion == 1 ? .headerMAC : .headerMACv2, [], vaultID: vaultID))
    }

    /// WK = derive(MK, "key wrap").
    func wrapKey(vaultID: [UInt8]) -> WrapKey {
        WrapKey(KeyRing.derive(secret, .keyWrap, [], vaultID: vaultID))
    }

    /// TWK = derive(MK, "trust key wrap").
    func trustWrapKey(vaultID: [UInt8]) -> TrustWrapKey {
        TrustWrapKey(KeyRing.derive(secret, .trustKeyWrap, [], vaultID: vaultID))
    }
}

extension GroupKey {
    /// LK[g] = derive(GK[g], "lookup").
    func lookupKey(vaultID: [UInt8]) -> LookupKey {
        LookupKey(KeyRing.derive(secret, .lookup, [], vaultID: vaultID))
    }

    /// IMK[g] = derive(GK[g], "index mac" of the format version).
    func indexMACKey(formatVersion: UInt16, vaultID: [UInt8]) -> IndexMACKey {
        IndexMACKey(KeyRing.derive(secret, formatVersion == 1 ? .indexMAC : .indexMACv2, [], vaultID: vaultID))
    }

    /// B[g,c] = derive(GK[g] ‖ CK[c], "base", u32 group id ‖ u8 class id).
    func baseKey(_ classKey: ClassKey, groupID: GroupID, classID: ClassID, vaultID: [UInt8]) -> BaseKey {
        var context = ByteWriter()
        context.groupID(groupID)
        context.classID(classID)
        return BaseKey(KeyRing.derive(secret.appending(classKey.secret), .base, context.bytes, vaultID: vaultID))
    }

    /// The check value of the group key stored in the header: HMAC(GK[g], "group key check" ‖ vault id ‖ u32 group id).
    func check(groupID: GroupID, vaultID: [UInt8]) -> [UInt8] {
        var w = ByteWriter()
        w.raw(KeyLabel.groupKeyCheck.bytes)
        w.raw(vaultID)
        w.groupID(groupID)
        return Array(HMAC.sha256(key: secret, data: w.bytes).prefix(VaultFile.checkSize))
    }
}

extension LookupKey {
    /// RMK[g] = derive(LK[g], "read mac").
    func readMACKey(vaultID: [UInt8]) -> ReadMACKey {
        ReadMACKey(KeyRing.derive(secret, .readMAC, [], vaultID: vaultID))
    }
}
