import VaultCrypto

/// A (group, class) pair: what one listing covers.
struct ListingPair: Hashable {
    let groupID: GroupID
    let classID: ClassID
}

/// A listing block opened: its plaintext (attributes, never a secret: ordinary memory) and where
/// each item's fields sit in it, in block order.
struct OpenedListing {
    let bucket: Int
    let plaintext: [UInt8]
    let items: [(itemID: Bytes16, fields: Range<Int>)]
    let group: AccessGroup
    let accessibility: Accessibility
}

// Listing blocks: the attributes of every item of a (group, class), sealed together in
// buckets, so `list` opens a few blocks per pair instead of deriving a key for every record.
extension OpenVault {
    /// The positions of the index's entries by (group, class), for the pairs `includes` accepts.
    /// Neighbouring entries mostly share their pair: it is asked, and the dictionary touched, once
    /// per run of them, not once per entry.
    func positionsByPair(_ includes: (ListingPair) -> Bool) -> [ListingPair: [Int]] {
        var positionsByPair: [ListingPair: [Int]] = [:]
        var run: (pair: ListingPair, included: Bool, positions: [Int])?
        func endRun() {
            if let run, run.included { positionsByPair[run.pair, default: []].append(contentsOf: run.positions) }
        }
        for position in file.index.indices {
            let pair = ListingPair(groupID: file.index.groupID(at: position), classID: file.index.classID(at: position))
            if run?.pair != pair {
                endRun()
                run = (pair, includes(pair), [])
            }
            if run?.included == true { run?.positions.append(position) }
        }
        endRun()
        return positionsByPair
    }

    /// The blocks of `pair`, in bucket order.
    func listingBlocks(of pair: ListingPair) -> [ListingBlock] {
        file.listings.filter { $0.groupID == pair.groupID && $0.classID == pair.classID }
    }

    /// The items the listing blocks of `pair` hold, found by item id and decoded when taken (a
    /// dictionary of 100 000 items' decoded attributes would be copied once more than needed);
    /// nil when the pair has none.
    /// Throws `locked` or `boundToAnotherDevice` when the keys at hand do not open them, `corrupted`
    /// when one does not match its digest, does not open with the right key, or lists an item
    /// whose id falls in another bucket.
    func listedItems(of pair: ListingPair) throws -> ListedItems? {
        let blocks = listingBlocks(of: pair)
        guard !blocks.isEmpty else { return nil }
        return ListedItems(listings: try blocks.map { try openListing($0, bucketCount: blocks.count) }, path: path)
    }

    /// `block`, one of `bucketCount` of its pair, opened, its items found but not decoded (a rebuild
    /// copies the unchanged ones as they are). Throws as `listedAttributes` does.
    func openListing(_ block: ListingBlock, bucketCount: Int) throws -> OpenedListing {
        guard let accessibility = Accessibility(fileID: block.classID) else {
            throw VaultError.corrupted(path: path, detail: .unknownClass(in: .listingBlock))
        }
        guard let group = keys.groups[block.groupID]?.group else { throw VaultError.locked(accessibility) }
        let key: SecretBytes
        do {
            key = try keys.listingKey(groupID: block.groupID, accessibility: accessibility)
        } catch KeyRingError.missingDeviceKey {
            throw VaultError.boundToAnotherDevice(group: group, accessibility: accessibility)
        } catch {
            throw VaultError.locked(accessibility)
        }
        guard let plaintext = SealedListing.open(block, key: key, vaultID: file.vaultID) else {
            throw VaultError.corrupted(path: path, detail: .doesNotOpen(.listingBlock))
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
                guard length <= bytes.count - offset, itemID.bucket(among: bucketCount) == block.bucket else { return nil }
                items.append((itemID, offset..<offset + length))
                offset += length
            }
            return items
        }
        guard let items else { throw VaultError.corrupted(path: path, detail: .violates(.listingItemOutOfBlock)) }
        return OpenedListing(bucket: block.bucket, plaintext: plaintext, items: items, group: group, accessibility: accessibility)
    }
}

/// The items of a pair's opened listing blocks, each decoded only when taken.
///
/// A writer lists each bucket's items in the order of the index, so the item asked for next is,
/// as a rule, the next one of its bucket's block: found without hashing. Blocks listing their
/// items in another order (another writer's) are looked up by item id from the first item that
/// is not where the rule puts it.
struct ListedItems {
    private let listings: [OpenedListing]
    /// In each block, the first item not taken yet, while every taking follows the rule.
    private var nextInBlock: [Int]
    /// The items not taken yet, by item id, once one was not where the rule puts it.
    private var places: [Bytes16: (listing: Int, item: Int)]?
    private let path: String

    init(listings: [OpenedListing], path: String) {
        self.listings = listings
        self.path = path
        nextInBlock = Array(repeating: 0, count: listings.count)
    }

    /// Whether every item listed was taken (an item id listed twice, once looked up by id, counts once).
    var areAllTaken: Bool {
        if let places { return places.isEmpty }
        return zip(listings, nextInBlock).allSatisfy { $0.items.count == $1 }
    }

    /// The attributes listed for `itemID`, decoded, and no longer held; nil when it is not listed (or
    /// was taken). Throws `corrupted` for fields that do not decode.
    mutating func take(_ itemID: Bytes16) throws -> ItemAttributes? {
        guard let place = takePlace(itemID) else { return nil }
        // Field by field, not `let listing = listings[…]`: a copy of the block's description
        // retained and released its arrays and group name for every item taken.
        let fields = listings[place.listing].items[place.item].fields
        do {
            return try listings[place.listing].plaintext.withUnsafeBytes { bytes in
                try RecordCodec.decodeListedAttributes(
                    UnsafeRawBufferPointer(rebasing: bytes[fields]),
                    group: listings[place.listing].group,
                    accessibility: listings[place.listing].accessibility)
            }
        } catch let error as MalformedInput {
            throw VaultError.corrupted(path: path, detail: error.damage)
        }
    }

    private mutating func takePlace(_ itemID: Bytes16) -> (listing: Int, item: Int)? {
        if places == nil {
            let listing = itemID.bucket(among: listings.count)
            if listing < listings.count, listings[listing].bucket == listing {
                let item = nextInBlock[listing]
                if item < listings[listing].items.count, listings[listing].items[item].itemID == itemID {
                    nextInBlock[listing] += 1
                    return (listing, item)
                }
            }
            var notTaken: [Bytes16: (listing: Int, item: Int)] = [:]
            for (listing, opened) in listings.enumerated() {
                for item in nextInBlock[listing]..<opened.items.count { notTaken[opened.items[item].itemID] = (listing, item) }
            }
            places = notTaken
        }
        return places?.removeValue(forKey: itemID)
    }
}
