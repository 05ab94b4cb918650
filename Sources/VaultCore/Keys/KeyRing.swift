import VaultCrypto

/// The keys a caller holds for one vault, and every key derived from them
/// (docs/FORMAT.md, "Keys"). A full ring (from the master key) holds every
/// group and class key; a partial ring — from the device key, the
/// after-first-unlock cache or a scoped credential — holds only what its
/// source gives, so what it cannot decrypt it cannot derive either.
/// A value: a copy holds the keys the original held when copied, and what is
/// added to or removed from one is not in the other.
struct KeyRing {
    let vaultID: [UInt8]
    /// The master key, in the owner's ring only.
    let masterKey: MasterKey?
    /// The header MAC key, when the ring can check (and so rewrite) the header.
    private(set) var headerMACKey: HeaderMACKey?
    /// The key that wraps class and group keys and the signing key in the header: in a full
    /// ring (the owner's, or a full member's) only.
    let wrapKey: WrapKey?
    /// The format version whose labels derive the write keys (header MAC key, index MAC keys):
    /// v2 has labels of its own, so the v1 copies that sealed them under the device key give nothing of v2's.
    private(set) var formatVersion: UInt16
    /// This machine's device key, when it is the one the vault's device-bound items use.
    let deviceKey: DeviceKey?
    /// The groups the ring can open, by id.
    private(set) var groups: [GroupID: GroupKeys] = [:]
    /// Class keys by class id.
    private(set) var classKeys: [ClassID: ClassKey] = [:]

    /// The owner's full ring, from the master key.
    init(vaultID: [UInt8], masterKey: MasterKey, deviceKey: DeviceKey?, formatVersion: UInt16 = VaultFile.version) {
        self.formatVersion = formatVersion
        self.vaultID = vaultID
        self.masterKey = masterKey
        self.headerMACKey = masterKey.headerMACKey(formatVersion: formatVersion, vaultID: vaultID)
        self.wrapKey = masterKey.wrapKey(vaultID: vaultID)
        self.deviceKey = deviceKey
    }

    /// A full member's ring: every key the master key derives but the trust key's wrap (v2 only).
    init(vaultID: [UInt8], fullMemberKeys: FullMemberKeys, deviceKey: DeviceKey?) {
        self.formatVersion = VaultFile.version
        self.vaultID = vaultID
        self.masterKey = nil
        self.headerMACKey = fullMemberKeys.headerMACKey
        self.wrapKey = fullMemberKeys.wrapKey
        self.deviceKey = deviceKey
    }

    /// A partial ring: no master key.
    init(vaultID: [UInt8], headerMACKey: HeaderMACKey?, deviceKey: DeviceKey?, formatVersion: UInt16 = VaultFile.version) {
        self.formatVersion = formatVersion
        self.vaultID = vaultID
        self.masterKey = nil
        self.headerMACKey = headerMACKey
        self.wrapKey = nil
        self.deviceKey = deviceKey
    }

    /// What a full member's slot carries: the keys of a full ring but the master key (v2 only).
    var fullMemberKeys: FullMemberKeys? {
        guard formatVersion >= 2, let headerMACKey, let wrapKey else { return nil }
        return FullMemberKeys(headerMACKey: headerMACKey, wrapKey: wrapKey)
    }

    /// What opens a whole vault again: the master key (the owner's ring), or a full member's keys.
    enum FullKeys {
        case owner(masterKey: MasterKey)
        case member(FullMemberKeys)
    }

    /// The keys that open the vault whole again, in a full ring.
    var fullKeys: FullKeys? {
        if let masterKey { return .owner(masterKey: masterKey) }
        return fullMemberKeys.map(FullKeys.member)
    }

    /// TWK, the key the trust key is sealed under: derived from the master key, so the owner's alone.
    var trustWrapKey: TrustWrapKey? { masterKey?.trustWrapKey(vaultID: vaultID) }

    /// A full ring read from a v1 file, moved to v2's write keys (a conversion): the header MAC
    /// key and every group's index MAC key derived again under v2's labels.
    mutating func convertWriteKeys() {
        guard formatVersion == 1, let masterKey else { return }
        formatVersion = VaultFile.version
        headerMACKey = masterKey.headerMACKey(formatVersion: formatVersion, vaultID: vaultID)
        for (id, keys) in groups {
            guard let groupKey = keys.groupKey else { continue }
            groups[id] = groupKeys(keys.group, groupKey: groupKey)
        }
    }

    mutating func addGroup(_ keys: GroupKeys, id: GroupID) {
        groups[id] = keys
    }

    mutating func removeGroup(id: GroupID) {
        groups[id] = nil
    }

    /// Sets the key of a class, dropping what every group derived from the class's key before.
    mutating func addClassKey(_ key: ClassKey, classID: ClassID) {
        classKeys[classID] = key
        for (id, keys) in groups where keys.groupKey != nil {
            groups[id]?.derived = keys.derived.forgetting(classID)
        }
    }

    func groupID(of group: AccessGroup) -> GroupID? {
        groups.first(where: { $0.value.group == group })?.key
    }

    /// The full keys of a group made from its group key.
    func groupKeys(_ group: AccessGroup, groupKey: GroupKey) -> GroupKeys {
        GroupKeys(
            group: group, groupKey: groupKey, lookupKey: groupKey.lookupKey(vaultID: vaultID),
            indexMACKey: groupKey.indexMACKey(formatVersion: formatVersion, vaultID: vaultID))
    }

    // MARK: derived keys and tags

    func lookupTag(groupID: GroupID, service: String, account: String) throws -> [UInt8] {
        var w = ByteWriter()
        w.lengthPrefixed(Array(service.utf8))
        w.lengthPrefixed(Array(account.utf8))
        return Array(HMAC.sha256(key: try group(groupID).lookupKey.secret, data: w.bytes).prefix(16))
    }

    /// Which of a group's two MACs (docs/FORMAT.md, "Group sections").
    enum GroupMACKind {
        /// Under IMK[g]: made only by a writer of the group; checked by whoever holds IMK.
        case index
        /// Under RMK[g] = HKDF(LK[g], "read mac"): checked by readers without IMK.
        case read
    }

    /// What a group's MACs are bound to besides its entries: the header's counters and the group's generation.
    struct GroupMACContext {
        var keyEpoch: UInt64
        var writeGeneration: UInt64
        var groupGeneration: UInt64
        /// The header's write id (v3; empty in v2).
        var writeID: [UInt8] = []
    }

    /// A v1 group's index MAC: vault id ‖ u32 group id ‖ the group's entries as the file holds
    /// them (`encoded`, the v1 bytes of `entries`), each run of them going in as one piece, uncopied.
    func groupMACv1(groupID: GroupID, entries: IndexTable, encoded: UnsafeRawBufferPointer) throws -> [UInt8] {
        guard let indexMACKey = try group(groupID).indexMACKey else { throw KeyRingError.missingIndexMACKey(groupID) }
        let entrySize = IndexEntry.size(version: 1)
        precondition(encoded.count == entries.count * entrySize, "an index encoding of another length")
        let mac = try HMACSHA256(key: indexMACKey.secret)
        var w = ByteWriter(capacity: 20)
        w.raw(vaultID)
        w.groupID(groupID)
        mac.update(w.bytes)
        var runStart: Int?
        func endRun(at end: Int) {
            guard let start = runStart else { return }
            mac.update(UnsafeRawBufferPointer(rebasing: encoded[start * entrySize..<end * entrySize]))
            runStart = nil
        }
        for number in entries.indices {
            if entries.groupID(at: number) != groupID {
                endRun(at: number)
            } else if runStart == nil {
                runStart = number
            }
        }
        endRun(at: entries.count)
        return mac.finalize()
    }

    /// A v2 group MAC: the label ‖ vault id ‖ u64 key epoch ‖ u64 write generation ‖ u32 group id
    /// ‖ u64 group generation ‖ (v3) the write id (16) ‖ u16 bucket count ‖ the digest of each index bucket ‖ u8 class id
    /// ‖ u16 bucket ‖ digest of each of the group's listing blocks, in file order.
    /// Throws `missingIndexMACKey` for an index MAC of a group held without that key (a read-only credential).
    func groupMAC(
        _ kind: GroupMACKind, groupID: GroupID, context: GroupMACContext, bucketDigests: [[UInt8]],
        listings: [ListingBlock]
    ) throws -> [UInt8] {
        let keys = try group(groupID)
        let key: SecretBytes
        switch kind {
        case .index:
            guard let indexMACKey = keys.indexMACKey else { throw KeyRingError.missingIndexMACKey(groupID) }
            key = indexMACKey.secret
        case .read:
            key = keys.readMACKey(vaultID: vaultID).secret
        }
        let mac = try HMACSHA256(key: key)
        var w = ByteWriter(capacity: 64 + (bucketDigests.count + 1) * VaultFile.digestSize)
        w.raw((kind == .index ? KeyLabel.indexGroupMAC : .readGroupMAC).bytes)
        w.raw(vaultID)
        w.u64(context.keyEpoch)
        w.u64(context.writeGeneration)
        w.groupID(groupID)
        w.u64(context.groupGeneration)
        w.raw(context.writeID)
        w.u16(UInt16(bucketDigests.count))
        for digest in bucketDigests { w.raw(digest) }
        for block in listings where block.groupID == groupID {
            w.classID(block.classID)
            w.u16(UInt16(block.bucket))
            w.raw(block.digest)
        }
        mac.update(w.bytes)
        return mac.finalize()
    }

    /// The base key of (group, class): what the record keys of that pair derive from.
    func baseKey(groupID: GroupID, classID: ClassID) throws -> BaseKey {
        let keys = try group(groupID)
        if let given = keys.baseKeys[classID] { return given }
        if let cached = keys.derived.baseKeys[classID] { return cached }
        guard let groupKey = keys.groupKey, let classKey = classKeys[classID] else {
            throw KeyRingError.missingClassKey(classID)
        }
        let key = groupKey.baseKey(classKey, groupID: groupID, classID: classID, vaultID: vaultID)
        keys.derived.baseKeys[classID] = key
        return key
    }

    /// The key of one record: fresh for every record id, bound to the device for device-bound classes.
    /// `derive(B[g,c] [‖ DK], "record", record id)`, with the HKDF extract step done once per (group, class).
    func recordKey(groupID: GroupID, accessibility: Accessibility, recordID: Bytes16) throws -> SecretBytes {
        let deriver = try recordKeyDeriver(groupID: groupID, accessibility: accessibility)
        let prefix = KeyRing.recordInfoPrefix
        // On the stack: a bulk read derives one key per record.
        return withUnsafeTemporaryAllocation(byteCount: prefix.count + 16, alignment: 1) { info in
            prefix.withUnsafeBytes { info.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            recordID.store(to: info.baseAddress! + prefix.count)
            return deriver.deriveKey(info: UnsafeRawBufferPointer(info))
        }
    }

    private static let recordInfoPrefix = KeyLabel.record.bytes

    /// The key of a group's tombstone block: `derive(LK[g], "tombstones")`, held by every reader of
    /// the group, so every writer who may delete one of its items can keep its tombstone.
    func tombstoneKey(groupID: GroupID) throws -> SecretBytes {
        KeyRing.derive(try group(groupID).lookupKey.secret, .tombstones, [], vaultID: vaultID)
    }

    /// The key of a group's trash block: `derive(LK[g], "trash")`, held by every reader of the group,
    /// so every writer who may delete one of its items can keep it in the trash. The records in it
    /// stay sealed under their record keys.
    func trashKey(groupID: GroupID) throws -> SecretBytes {
        KeyRing.derive(try group(groupID).lookupKey.secret, .trash, [], vaultID: vaultID)
    }

    /// The key of a group's grant ledger block: `derive(GK[g], "grant ledger")`, held by whoever holds
    /// the group key — the owner and full members, who may grant — and by no credential or scoped member.
    /// Throws `locked` without the group key.
    func grantLedgerKey(groupID: GroupID) throws -> SecretBytes {
        guard let groupKey = try group(groupID).groupKey else { throw VaultError.locked(nil) }
        return KeyRing.derive(groupKey.secret, .grantLedger, [], vaultID: vaultID)
    }

    /// The key of the secret digests `git diff` shows (`Vault.summary(ofVersion:)`):
    /// `derive(LK[g], "secret digest")`, held by every reader of the group and by no one else, so a
    /// digest in a pasted diff cannot be tried against guessed secrets.
    func secretDigestKey(groupID: GroupID) throws -> SecretBytes {
        KeyRing.derive(try group(groupID).lookupKey.secret, .secretDigest, [], vaultID: vaultID)
    }

    /// The key of the listing block of (group, class): `derive(B[g,c] [‖ DK], "listing")`.
    func listingKey(groupID: GroupID, accessibility: Accessibility) throws -> SecretBytes {
        var material = try baseKey(groupID: groupID, classID: accessibility.fileID).secret
        if accessibility.isDeviceBound {
            guard let deviceKey else { throw KeyRingError.missingDeviceKey }
            material = material.appending(deviceKey.secret)
        }
        return KeyRing.derive(material, .listing, [], vaultID: vaultID)
    }

    private func recordKeyDeriver(groupID: GroupID, accessibility: Accessibility) throws -> HKDFExpander {
        let classID = accessibility.fileID
        let keys = try group(groupID)
        if let cached = keys.derived.recordKeyDerivers[classID] { return cached }
        var material = try baseKey(groupID: groupID, classID: classID).secret
        if accessibility.isDeviceBound {
            guard let deviceKey else { throw KeyRingError.missingDeviceKey }
            material = material.appending(deviceKey.secret)
        }
        // HMAC-SHA256 is always there once the ring exists (it checked the header with it).
        let deriver = try! HKDFExpander(inputKeyMaterial: material, salt: vaultID)
        keys.derived.recordKeyDerivers[classID] = deriver
        return deriver
    }

    /// The key that seals what the device key alone opens.
    func deviceWrapKey() throws -> DeviceWrapKey {
        guard let deviceKey else { throw KeyRingError.missingDeviceKey }
        return deviceKey.wrapKey(vaultID: vaultID)
    }

    private func group(_ id: GroupID) throws -> GroupKeys {
        guard let keys = groups[id] else { throw KeyRingError.missingGroupKey(id) }
        return keys
    }

    /// HKDF-SHA256 with the vault id as salt and the label ‖ context as info.
    /// Through `HKDFExpander` (two HMACs) rather than EVP_KDF: a `get` then never builds
    /// OpenSSL's KDF method store, which cost it about a seventh of its instructions.
    static func derive(_ material: SecretBytes, _ label: KeyLabel, _ context: [UInt8], vaultID: [UInt8]) -> SecretBytes {
        // HMAC-SHA256 can only be missing if OpenSSL is broken; nothing here could go on then.
        try! HKDFExpander(inputKeyMaterial: material, salt: vaultID).deriveKey(info: label.bytes + context)
    }
}

/// The keys of one group that a ring holds: the group key itself in a full
/// ring, or only the lookup key, index MAC key and some base keys in a partial one.
struct GroupKeys {
    let group: AccessGroup
    let groupKey: GroupKey?
    let lookupKey: LookupKey
    /// Checks (and so can rewrite) the group's index; a read-only credential does not hold it.
    let indexMACKey: IndexMACKey?
    /// Base keys by class id that the ring was given (a partial ring's grants). A full ring
    /// derives its own from the group key (`KeyRing.baseKey`).
    private(set) var baseKeys: [ClassID: BaseKey]
    /// What these keys derived so far.
    fileprivate(set) var derived = DerivedGroupKeys()

    /// RMK[g] = HKDF(LK[g], "read mac"): every reader of the group holds LK, so every reader can
    /// check the group's read MAC; only a holder of IMK can make its index MAC.
    func readMACKey(vaultID: [UInt8]) -> ReadMACKey {
        if let cached = derived.readMACKey { return cached }
        let key = lookupKey.readMACKey(vaultID: vaultID)
        derived.readMACKey = key
        return key
    }

    /// Adds a base key the ring was given (not derived).
    mutating func addBaseKey(_ key: BaseKey, classID: ClassID) {
        baseKeys[classID] = key
        derived = derived.forgetting(classID)
    }

    init(
        group: AccessGroup, groupKey: GroupKey?, lookupKey: LookupKey, indexMACKey: IndexMACKey?,
        baseKeys: [ClassID: BaseKey] = [:]
    ) {
        self.group = group
        self.groupKey = groupKey
        self.lookupKey = lookupKey
        self.indexMACKey = indexMACKey
        self.baseKeys = baseKeys
    }
}

/// The keys a group's keys derived on demand, kept for the next use (a `get` derives a record key
/// per record). Copies of a ring share it only while the keys it was derived from are the same:
/// a ring whose class key or given base key changes takes a new one (`forgetting`), so the cache
/// never answers for keys a copy does not hold.
final class DerivedGroupKeys {
    /// Base keys by class id, derived from the group key and the class key.
    fileprivate(set) var baseKeys: [ClassID: BaseKey] = [:]
    /// Record-key derivations by class id, each with its HKDF extract step done (from the base key).
    fileprivate(set) var recordKeyDerivers: [ClassID: HKDFExpander] = [:]
    /// The group's read MAC key, derived from its lookup key.
    fileprivate(set) var readMACKey: ReadMACKey?

    /// A new cache holding all of this one but what was derived from the key of `classID`.
    func forgetting(_ classID: ClassID) -> DerivedGroupKeys {
        let kept = DerivedGroupKeys()
        kept.baseKeys = baseKeys.filter { $0.key != classID }
        kept.recordKeyDerivers = recordKeyDerivers.filter { $0.key != classID }
        kept.readMACKey = readMACKey
        return kept
    }
}

/// A key the ring does not hold.
enum KeyRingError: Error {
    case missingGroupKey(GroupID)
    case missingClassKey(ClassID)
    case missingDeviceKey
    case missingIndexMACKey(GroupID)
}

/// The keys a full member's slot carries in place of the master key: HMK and WK, which open and
/// write everything the master key does but the trust key (docs/FORMAT.md, "Member slots"). A
/// removed full member's copy is made useless by the re-key that removes it, and it never held
/// the trust key, so readers keep their pin.
struct FullMemberKeys {
    let headerMACKey: HeaderMACKey
    let wrapKey: WrapKey
}
