import VaultCrypto

/// A (group, class) pair: what one listing block covers.
struct ListingPair: Hashable {
    let groupID: GroupID
    let classID: ClassID
}

// Listing blocks: the attributes of every item of a (group, class), sealed together, so
// `list` opens one block per pair instead of deriving a key for every record.
extension OpenVault {
    /// The attributes the listing block of `pair` holds, by item id; nil when the pair has no block.
    /// Throws `locked` or `boundToAnotherDevice` when the keys at hand do not open it, `corrupted`
    /// when it does not match its digest or does not open with the right key.
    func listedAttributes(of pair: ListingPair) throws -> [Bytes16: ItemAttributes]? {
        guard let (fields, group, accessibility) = try listedFields(of: pair) else { return nil }
        do {
            return try fields.mapValues { bytes in
                try bytes.withUnsafeBytes { try RecordCodec.decodeListedAttributes($0, group: group, accessibility: accessibility) }
            }
        } catch let error as MalformedInput {
            throw VaultError.corrupted(path: path, detail: error.detail)
        }
    }

    /// The encoded attribute fields of each item the block of `pair` lists, by item id, undecoded
    /// (what a rebuild copies for the items that did not change); nil when the pair has no block.
    private func listedFields(of pair: ListingPair) throws -> (fields: [Bytes16: [UInt8]], group: AccessGroup, accessibility: Accessibility)? {
        guard let block = file.listings.first(where: { $0.groupID == pair.groupID && $0.classID == pair.classID }) else { return nil }
        guard let accessibility = Accessibility(fileID: pair.classID) else {
            throw VaultError.corrupted(path: path, detail: "a listing block names an unknown class")
        }
        guard let group = keys.groups[pair.groupID]?.group else { throw VaultError.locked(accessibility) }
        let key: SecretBytes
        do {
            key = try keys.listingKey(groupID: pair.groupID, accessibility: accessibility)
        } catch KeyRingError.missingDeviceKey {
            throw VaultError.boundToAnotherDevice(group: group, accessibility: accessibility)
        } catch {
            throw VaultError.locked(accessibility)
        }
        guard block.digestMatches,
              let plaintext = try? AESGCM.open(block.sealed, key: key,
                                              aad: AAD.listing(vaultID: file.vaultID, groupID: pair.groupID, classID: pair.classID)) else {
            throw VaultError.corrupted(path: path, detail: "a listing block does not open")
        }
        let fields = try plaintext.withUnsafeBytes { bytes -> [Bytes16: [UInt8]]? in
            var fields: [Bytes16: [UInt8]] = [:]
            fields.reserveCapacity(bytes.count / 96)
            var offset = 0
            while offset < bytes.count {
                guard bytes.count - offset >= 20 else { return nil }
                let itemID = Bytes16(loadingFrom: bytes.baseAddress! + offset)
                let length = Int(UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt32.self)))
                offset += 20
                guard length <= bytes.count - offset, fields[itemID] == nil else { return nil }
                fields[itemID] = Array(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length]))
                offset += length
            }
            return fields
        }
        guard let fields else { throw VaultError.corrupted(path: path, detail: "a listing block's item overruns it or repeats") }
        return (fields, group, accessibility)
    }

    /// Seals again the listing block of every changed pair that still has items, from the
    /// attributes of items stored since the read, the block as it was, or (a v1 file being
    /// converted) the records themselves. A pair whose items the keys at hand cannot all read
    /// (bound to another machine) is left without a block: it is then listed record by record.
    mutating func sealChangedListings() throws {
        guard !changedListings.isEmpty else { return }
        var positionsByPair: [ListingPair: [Int]] = [:]
        for (position, entry) in file.index.enumerated() {
            let pair = ListingPair(groupID: entry.groupID, classID: entry.classID)
            if changedListings.contains(pair) { positionsByPair[pair, default: []].append(position) }
        }
        var sealed: [ListingPair: ListingBlock] = [:]
        for (pair, positions) in positionsByPair {
            guard let accessibility = Accessibility(fileID: pair.classID),
                  let key = try? keys.listingKey(groupID: pair.groupID, accessibility: accessibility) else { continue }
            let previous = (try? listedFields(of: pair))?.fields
            var w = ByteWriter(capacity: positions.count * 128)
            defer { w.wipeBytes() }
            var complete = true
            for position in positions {
                let itemID = file.index[position].itemID
                let fields: [UInt8]
                if let attributes = storedAttributes[itemID] ?? (previous?[itemID] == nil ? try? openAttributes(at: position) : nil) {
                    var encoded = ByteWriter(capacity: 128)
                    RecordCodec.encodeAttributes(attributes, into: &encoded)
                    fields = encoded.bytes
                } else if let unchanged = previous?[itemID] {
                    fields = unchanged
                } else {
                    complete = false
                    break
                }
                itemID.encode(into: &w)
                w.lengthPrefixed(fields)
            }
            guard complete else { continue }
            let block = try AESGCM.seal(w.bytes, key: key, aad: AAD.listing(vaultID: file.vaultID, groupID: pair.groupID, classID: pair.classID))
            sealed[pair] = ListingBlock(groupID: pair.groupID, classID: pair.classID, digest: SHA256.hash(block), sealed: block[...])
        }
        // Groups this write changed get their blocks in class order; every other group keeps its
        // blocks as they were, in their order: its MACs, which a scoped writer cannot make, cover that order.
        let changedGroups = Set(changedListings.map(\.groupID))
        var listings: [ListingBlock] = []
        for group in file.groups {
            let kept = file.listings.filter { block in
                block.groupID == group.groupID && !changedListings.contains(ListingPair(groupID: block.groupID, classID: block.classID))
            }
            guard changedGroups.contains(group.groupID) else {
                listings += kept
                continue
            }
            listings += (kept + sealed.values.filter { $0.groupID == group.groupID }).sorted { $0.classID < $1.classID }
        }
        file.listings = listings
        changedListings = []
    }
}
