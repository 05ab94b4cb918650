import VaultCrypto

/// A listing block: the attributes of one bucket of a (group, class)'s items, `AES-GCM(listing key,
/// item id ‖ bytes(attributes) each, AAD = AAD.listing)` (docs/FORMAT.md, "Listing blocks"); its
/// key from the pair's base key (`KeyRing.listingKey(groupID:accessibility:)`).
enum SealedListing {
    /// `plaintext` sealed as the block of `bucket` of `pair`.
    static func seal(_ plaintext: [UInt8], key: SecretBytes, vaultID: [UInt8], pair: ListingPair, bucket: Int) throws -> ListingBlock {
        let sealed = try AESGCM.seal(
            plaintext, key: key,
            aad: AAD.listing(
                vaultID: vaultID, groupID: pair.groupID, classID: pair.classID,
                bucket: bucket))
        return ListingBlock(groupID: pair.groupID, classID: pair.classID, bucket: bucket, sealed: sealed)
    }

    /// The plaintext of `block`; nil when it does not match its digest or does not open.
    static func open(_ block: ListingBlock, key: SecretBytes, vaultID: [UInt8]) -> [UInt8]? {
        let aad = AAD.listing(vaultID: vaultID, groupID: block.groupID, classID: block.classID, bucket: block.bucket)
        guard let sealed = block.checkedSealedBytes else { return nil }
        return try? sealed.withUnsafeBytes { try AESGCM.openNonSecret($0, key: key, aad: aad) }
    }
}
