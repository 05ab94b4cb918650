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
        guard let listing = try openListing(of: pair) else { return nil }
        do {
            return try listing.plaintext.withUnsafeBytes { bytes in
                var listed: [Bytes16: ItemAttributes] = [:]
                listed.reserveCapacity(listing.items.count)
                for item in listing.items {
                    listed[item.itemID] = try RecordCodec.decodeListedAttributes(UnsafeRawBufferPointer(rebasing: bytes[item.fields]),
                                                                                 group: listing.group, accessibility: listing.accessibility)
                }
                return listed
            }
        } catch let error as MalformedInput {
            throw VaultError.corrupted(path: path, detail: error.detail)
        }
    }

    /// A listing block opened: its plaintext and where each item's fields sit in it, in block order.
    struct OpenedListing {
        let plaintext: SecretBytes
        let items: [(itemID: Bytes16, fields: Range<Int>)]
        let group: AccessGroup
        let accessibility: Accessibility
    }

    /// The block of `pair` opened, its items found but not decoded (a rebuild copies the unchanged
    /// ones as they are); nil when the pair has no block. Throws as `listedAttributes` does.
    func openListing(of pair: ListingPair) throws -> OpenedListing? {
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
              let plaintext = try? block.sealed.withUnsafeBytes({
                  try AESGCM.open($0, key: key, aad: AAD.listing(vaultID: file.vaultID, groupID: pair.groupID, classID: pair.classID))
              }) else {
            throw VaultError.corrupted(path: path, detail: "a listing block does not open")
        }
        let items = plaintext.withUnsafeBytes { bytes -> [(itemID: Bytes16, fields: Range<Int>)]? in
            var items: [(itemID: Bytes16, fields: Range<Int>)] = []
            items.reserveCapacity(bytes.count / 96)
            var offset = 0
            while offset < bytes.count {
                guard bytes.count - offset >= 20 else { return nil }
                let itemID = Bytes16(loadingFrom: bytes.baseAddress! + offset)
                let length = Int(UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt32.self)))
                offset += 20
                guard length <= bytes.count - offset else { return nil }
                items.append((itemID, offset..<offset + length))
                offset += length
            }
            return items
        }
        guard let items else { throw VaultError.corrupted(path: path, detail: "a listing block's item overruns it") }
        return OpenedListing(plaintext: plaintext, items: items, group: group, accessibility: accessibility)
    }

    /// Seals again the listing block of every changed pair that still has items, from the
    /// attributes of items stored since the read, the block as it was (its unchanged items copied
    /// as they are, in one pass when the order is unchanged), or (a v1 file being converted) the
    /// records themselves. A pair whose items the keys at hand cannot all read (bound to another
    /// machine) is left without a block: it is then listed record by record.
    mutating func sealChangedListings() throws {
        guard !changedListings.isEmpty else { return }
        var positionsByPair: [ListingPair: [Int]] = [:]
        // Neighbouring entries mostly share their pair: decide once per run.
        var run: (pair: ListingPair, changed: Bool, positions: [Int])?
        func endRun() {
            if let run, run.changed { positionsByPair[run.pair, default: []].append(contentsOf: run.positions) }
        }
        for position in file.index.indices {
            let pair = ListingPair(groupID: file.index.groupID(at: position), classID: file.index.classID(at: position))
            if run?.pair != pair {
                endRun()
                run = (pair, changedListings.contains(pair), [])
            }
            if run?.changed == true { run?.positions.append(position) }
        }
        endRun()
        var sealed: [ListingPair: ListingBlock] = [:]
        for (pair, positions) in positionsByPair {
            guard let accessibility = Accessibility(fileID: pair.classID),
                  let key = try? keys.listingKey(groupID: pair.groupID, accessibility: accessibility),
                  var plaintext = listingPlaintext(positions, previous: (try? openListing(of: pair)) ?? nil) else { continue }
            defer { plaintext.wipeBytes() }
            let block = try AESGCM.seal(plaintext.bytes, key: key, aad: AAD.listing(vaultID: file.vaultID, groupID: pair.groupID, classID: pair.classID))
            sealed[pair] = ListingBlock(groupID: pair.groupID, classID: pair.classID, digest: SHA256.hash(block), sealed: StoredBytes(block))
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

    /// The plaintext of the listing block of the items at `positions`, or nil when one of them can
    /// be read neither from what was stored, nor from `previous`, nor from its record.
    private func listingPlaintext(_ positions: [Int], previous: OpenedListing?) -> ByteWriter? {
        var w = ByteWriter(capacity: (previous?.plaintext.count ?? 0) + 128 * storedAttributes.count + 64)
        var cursor = 0
        var byItemID: [Bytes16: Range<Int>]?
        for position in positions {
            let itemID = file.index[position].itemID
            var fields: Range<Int>?
            if storedAttributes[itemID] == nil, let previous {
                // In the common case the block lists the items in the order the index holds them.
                if cursor < previous.items.count, previous.items[cursor].itemID == itemID {
                    fields = previous.items[cursor].fields
                    cursor += 1
                } else {
                    if byItemID == nil { byItemID = Dictionary(previous.items.map { ($0.itemID, $0.fields) }, uniquingKeysWith: { first, _ in first }) }
                    fields = byItemID?[itemID]
                }
            }
            if let fields, let previous {
                itemID.encode(into: &w)
                w.u32(UInt32(fields.count))
                previous.plaintext.withUnsafeBytes { w.raw(UnsafeRawBufferPointer(rebasing: $0[fields])) }
            } else if let attributes = storedAttributes[itemID] ?? (try? openAttributes(at: position)) {
                var encoded = ByteWriter(capacity: 128)
                RecordCodec.encodeAttributes(attributes, into: &encoded)
                itemID.encode(into: &w)
                w.lengthPrefixed(encoded.bytes)
            } else {
                w.wipeBytes()
                return nil
            }
        }
        return w
    }
}
