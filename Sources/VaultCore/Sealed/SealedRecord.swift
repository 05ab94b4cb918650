import VaultCrypto

/// What a record is bound to: the vault, its record id, its group and its class. Its AAD
/// (`AAD.record`) is made of these, and its key is the record key of the same
/// (`KeyRing.recordKey(groupID:accessibility:recordID:)`).
struct RecordAddress {
    let vaultID: [UInt8]
    let recordID: Bytes16
    let groupID: GroupID
    let classID: ClassID
}

/// A record — an index entry's, a trashed item's, or a conflict's other version kept under its own
/// group and class: `AES-GCM(record key, RecordCodec's plaintext, AAD = AAD.record)` (docs/FORMAT.md, "Records").
enum SealedRecord {
    /// `plaintext` (as `RecordCodec` encodes it) sealed under the record key of `address`.
    static func seal(_ plaintext: SecretBytes, key: SecretBytes, at address: RecordAddress) throws -> [UInt8] {
        try AESGCM.seal(
            plaintext, key: key,
            aad: AAD.record(
                vaultID: address.vaultID, recordID: address.recordID.bytes,
                groupID: address.groupID, classID: address.classID))
    }

    /// The plaintext of `sealed`, through `opener`'s cipher context (a bulk read opens one record
    /// after another) and its AAD built on the stack. Throws when it does not open.
    static func open(
        _ sealed: UnsafeRawBufferPointer, key: SecretBytes, at address: RecordAddress,
        with opener: AESGCM.Opener
    ) throws -> SecretBytes {
        try AAD.withRecord(vaultID: address.vaultID, recordID: address.recordID, groupID: address.groupID, classID: address.classID) {
            try opener.open(sealed, key: key, aad: $0)
        }
    }

    /// The plaintext of `sealed` (a conflict's other version). Throws when it does not open.
    static func open(_ sealed: [UInt8], key: SecretBytes, at address: RecordAddress) throws -> SecretBytes {
        try AESGCM.open(
            sealed, key: key,
            aad: AAD.record(
                vaultID: address.vaultID, recordID: address.recordID.bytes,
                groupID: address.groupID, classID: address.classID))
    }
}
