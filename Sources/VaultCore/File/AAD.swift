/// The associated data of every AES-GCM seal vault makes, in one place: what
/// each sealed value is bound to, so that it opens nowhere else. docs/FORMAT.md
/// lists the same.
enum AAD {
    /// The record layout's version in every record's AAD: 1 in format v1 and v2 alike (the
    /// record layout did not change), so converting a v1 file re-seals no record.
    static let recordLayoutVersion: UInt16 = 1

    /// A record: vault id ‖ record id ‖ u32 group id ‖ u8 class id ‖ u16 record layout version (1).
    static func record(vaultID: [UInt8], recordID: [UInt8], groupID: GroupID, classID: ClassID) -> [UInt8] {
        withRecord(vaultID: vaultID, recordID: Bytes16(recordID), groupID: groupID, classID: classID) { Array($0) }
    }

    /// `record(vaultID:recordID:groupID:classID:)` built on the stack and passed to `body`: a bulk
    /// read opens one record after another, and an array each would be a good part of its allocations.
    static func withRecord<Result>(
        vaultID: [UInt8], recordID: Bytes16, groupID: GroupID, classID: ClassID,
        _ body: (UnsafeRawBufferPointer) throws -> Result
    ) rethrows -> Result {
        let count = vaultID.count + 16 + 4 + 1 + 2
        return try withUnsafeTemporaryAllocation(byteCount: count, alignment: 1) { buffer in
            let base = buffer.baseAddress!
            vaultID.withUnsafeBytes { base.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            recordID.store(to: base + vaultID.count)
            base.storeBytes(of: groupID.rawValue.bigEndian, toByteOffset: vaultID.count + 16, as: UInt32.self)
            base.storeBytes(of: classID.rawValue, toByteOffset: vaultID.count + 20, as: UInt8.self)
            base.storeBytes(of: recordLayoutVersion.bigEndian, toByteOffset: vaultID.count + 21, as: UInt16.self)
            return try body(UnsafeRawBufferPointer(buffer))
        }
    }

    /// A listing block: "listing" ‖ vault id ‖ u32 group id ‖ u8 class id ‖ u16 bucket.
    static func listing(vaultID: [UInt8], groupID: GroupID, classID: ClassID, bucket: Int) -> [UInt8] {
        var w = ByteWriter(capacity: 48)
        w.raw(Array("listing".utf8))
        w.raw(vaultID)
        w.groupID(groupID)
        w.classID(classID)
        w.u16(UInt16(bucket))
        return w.bytes
    }

    /// A group's tombstone block: "tombstones" ‖ vault id ‖ u32 group id.
    static func tombstones(vaultID: [UInt8], groupID: GroupID) -> [UInt8] {
        groupBlock("tombstones", vaultID: vaultID, groupID: groupID)
    }

    /// A group's trash block: "trash" ‖ vault id ‖ u32 group id.
    static func trash(vaultID: [UInt8], groupID: GroupID) -> [UInt8] {
        groupBlock("trash", vaultID: vaultID, groupID: groupID)
    }

    /// A group's grant ledger block: "grant ledger" ‖ vault id ‖ u32 group id.
    static func grantLedger(vaultID: [UInt8], groupID: GroupID) -> [UInt8] {
        groupBlock("grant ledger", vaultID: vaultID, groupID: groupID)
    }

    private static func groupBlock(_ label: String, vaultID: [UInt8], groupID: GroupID) -> [UInt8] {
        var w = ByteWriter(capacity: 40)
        w.raw(Array(label.utf8))
        w.raw(vaultID)
        w.groupID(groupID)
        return w.bytes
    }

    /// The vault's signing key wrapped under WK: "signing key" ‖ vault id.
    static func signingKey(vaultID: [UInt8]) -> [UInt8] {
        Array("signing key".utf8) + vaultID
    }

    /// The vault's trust key wrapped under TWK: "trust key" ‖ vault id ‖ its public key (TP). Only the
    /// master key gives TWK, so a trust key that opens with TP in its AAD is the one the owner sealed
    /// with TP: no public key is derived on opening (an Ed25519 scalar multiplication).
    static func trustKey(vaultID: [UInt8], publicKey: TrustPublicKey) -> [UInt8] {
        Array("trust key".utf8) + vaultID + publicKey.bytes
    }

    /// The trust key's AAD in vaults written before 2026-11-25: "trust key" ‖ vault id. Read only.
    static func trustKeyWithoutTP(vaultID: [UInt8]) -> [UInt8] {
        Array("trust key".utf8) + vaultID
    }

    /// What the trust key signs: "vault v2 trust statement" ‖ vault id ‖ u64 key epoch ‖ the signing
    /// public key ‖ SHA-256 of the sealed member removals (as the header holds them, empty or not).
    static func trustStatement(vaultID: [UInt8], keyEpoch: UInt64, signingPublicKey: SigningPublicKey, memberRemovals: [UInt8]) -> [UInt8] {
        var w = ByteWriter(capacity: 112)
        w.raw(KeyLabel.trustStatementV2.bytes)
        w.raw(vaultID)
        w.u64(keyEpoch)
        w.raw(signingPublicKey.bytes)
        w.raw(SHA256.hash(memberRemovals))
        return w.bytes
    }

    /// What the trust key signs in format v3: "vault v3 trust statement" ‖ vault id ‖ u64 key epoch
    /// ‖ the signing public key ‖ the team log's head ‖ SHA-256 of the member slots as the header holds them.
    static func trustStatement(
        vaultID: [UInt8], keyEpoch: UInt64, signingPublicKey: SigningPublicKey, teamLogHead: [UInt8],
        memberSlots: [UInt8]
    ) -> [UInt8] {
        var w = ByteWriter(capacity: 144)
        w.raw(KeyLabel.trustStatementV3.bytes)
        w.raw(vaultID)
        w.u64(keyEpoch)
        w.raw(signingPublicKey.bytes)
        w.raw(teamLogHead)
        w.raw(SHA256.hash(memberSlots))
        return w.bytes
    }

    /// What the header signature signs: "vault v2 header signature" ‖ the header parameters ‖ their checksum.
    static func headerSignature(header: [UInt8]) -> [UInt8] {
        KeyLabel.headerSignature.bytes + header
    }

    /// A class key wrapped under WK: "class" ‖ vault id ‖ u8 class id.
    static func classKey(vaultID: [UInt8], classID: ClassID) -> [UInt8] {
        Array("class".utf8) + vaultID + [classID.rawValue]
    }

    /// A group's name and key under WK ("group"), or its device grant under
    /// DWK ("device group"): the label ‖ vault id ‖ u32 group id.
    static func group(vaultID: [UInt8], groupID: GroupID, device: Bool = false) -> [UInt8] {
        var w = ByteWriter()
        w.raw(Array((device ? "device group" : "group").utf8))
        w.raw(vaultID)
        w.groupID(groupID)
        return w.bytes
    }

    /// v1 only: the header MAC key under DWK: "device header" ‖ vault id.
    static func deviceHeader(vaultID: [UInt8]) -> [UInt8] {
        Array("device header".utf8) + vaultID
    }

    /// A keyslot's wrapped master key: vault id ‖ the slot's kind and parameters.
    static func keyslot(vaultID: [UInt8], describing: [UInt8]) -> [UInt8] {
        vaultID + describing
    }

    /// An unlock session's master key: the session file's header ‖ vault id ‖ session id.
    static func session(header: [UInt8], vaultID: [UInt8], sessionID: [UInt8]) -> [UInt8] {
        header + vaultID + sessionID
    }

    /// Group grants sealed in a machine-local file (the after-first-unlock cache, this device's
    /// grants): the file's magic ‖ vault id.
    static func sealedGrants(magic: [UInt8], vaultID: [UInt8]) -> [UInt8] {
        magic + vaultID
    }
}

extension AAD {
    /// A member slot's key part: "member" ‖ vault id ‖ ephemeral share.
    static func memberKeys(vaultID: [UInt8], share: [UInt8]) -> [UInt8] {
        Array("member".utf8) + vaultID + share
    }

    /// A member slot's roster part under WK: "member info" ‖ vault id ‖ ephemeral share.
    static func memberInfo(vaultID: [UInt8], share: [UInt8]) -> [UInt8] {
        Array("member info".utf8) + vaultID + share
    }
}
