import VaultCrypto

// The file for writing: every MAC, signature and seal a write makes again, the listing, tombstone
// and trash blocks its changes left stale among them.
extension WorkingCopy {
    /// The whole file for writing, in format v2: the owner raises the write
    /// generation and re-MACs every group; a scoped writer (no header MAC key)
    /// keeps the header byte for byte and re-MACs its own groups. Each group
    /// re-MACed has its generation raised. Refused while a group is damaged
    /// (re-MACing it would launder the damage): `vault verify --quarantine` first.
    mutating func encode() throws -> [UInt8] {
        StoredBytes.joined(try encodePieces())
    }

    /// `encode()` in pieces to write back to back, those still in the file as read left there.
    mutating func encodePieces() throws -> [StoredBytes] {
        guard isWritable else { throw VaultError.locked(nil) }
        precondition(bucketChecks.everyBucket, "a vault opened for lookups only is never written")
        precondition(file.version >= 2, "a v1 file is converted before it is written")
        precondition(!keys.isOwners || file.hasTeamLog, "the owner's write converts a file to the team log first")
        if let damaged = damagedGroups.first {
            throw VaultError.damagedGroup(path: path, group: damaged.group)
        }
        // Opening does not check this (a get need not pay for it); the listing blocks are rebuilt
        // by item id, so a file with a repeated one (forged by a writer of one group) is not written on.
        guard !file.index.hasRepeatedItemID else {
            throw VaultError.corrupted(path: path, detail: .violates(.repeatedItemID))
        }
        try sealChangedListings()
        try sealTrash()
        try sealTombstones()
        try sealGrantLedger()
        let writesHeader = keys.mayWriteHeader
        if writesHeader { try unwrapSigningKey() }
        if writesHeader { try refreshMemberSlots() }
        if writesHeader { try sealTeamLog() }
        if writesHeader { file.writeGeneration += 1 }
        if writesHeader, file.hasTeamLog { file.writeID = SecureRandom.bytes(VaultFile.writeIDSize) }
        // Groups a scoped writer does not hold keep their section: their entries cannot have changed.
        let remade = file.groups.indices.filter { writesHeader || (scope?.contains(file.groups[$0].groupID) ?? false) }
        var wanted: [GroupID: (bucketCount: Int, buckets: Set<Int>?)] = [:]
        let entryCounts = file.index.entryCounts()
        for slot in remade {
            let groupID = file.groups[slot].groupID
            let current = file.sections[slot].bucketDigests.count
            let bucketCount = Buckets.index.next(for: entryCounts[groupID] ?? 0, current: current)
            wanted[groupID] = (bucketCount, bucketCount == current ? file.index.changes.buckets(of: groupID, among: bucketCount) : nil)
        }
        let rehashed = file.index.bucketDigests(wanted)
        file.index.markWritten()
        for slot in remade {
            let groupID = file.groups[slot].groupID
            var digests = wanted[groupID]!.buckets == nil ? [] : file.sections[slot].bucketDigests
            if digests.isEmpty { digests = Array(repeating: [], count: wanted[groupID]!.bucketCount) }
            for (bucket, digest) in rehashed[groupID] ?? [:] { digests[bucket] = digest }
            file.sections[slot].bucketDigests = digests
            file.sections[slot].generation += 1
            let context = macContext(file.sections[slot])
            file.sections[slot].indexMAC = try keys.groupMAC(
                .index, groupID: groupID, context: context, bucketDigests: digests, listings: file.listings)
            file.sections[slot].readMAC = try keys.groupMAC(
                .read, groupID: groupID, context: context, bucketDigests: digests, listings: file.listings)
            groupsVerifiedByWriteKey.insert(groupID)
        }
        if writesHeader {
            try signTrustStatement()
            try sealTrustKeyWithTPIfNeeded()
            guard let signingKey, let wrapKey = keys.wrapKey else { throw VaultError.locked(nil) }
            file.wrappedSigningKey = try SealedSigningKey.seal(signingKey, under: wrapKey, vaultID: file.vaultID)
        }
        let parameters = file.encodeHeaderParameters()
        let checksum = SHA256.hash(parameters)
        if let signingKey, writesHeader {
            file.headerSignature = try signingKey.sign(AAD.headerSignature(header: parameters + checksum))
        }
        let headerMAC: [UInt8]
        if let headerMACKey = keys.headerMACKey {
            headerMAC = HMAC.sha256(key: headerMACKey.secret, data: parameters + checksum)
        } else if let storedHeader, storedHeader.parameters.elementsEqual(parameters) {
            headerMAC = storedHeader.mac
        } else {
            throw VaultError.locked(nil)
        }
        return file.encodePieces(parameters: parameters, checksum: checksum, headerMAC: headerMAC)
    }

    /// A v1 file made v2 in memory (the owner's full ring only): counters
    /// start at epoch 1, every index entry gets an item id and its record's
    /// digest, and what v1 kept under the device key in the header leaves it.
    /// Records are not re-sealed: their layout and AAD did not change.
    mutating func convertToCurrentVersion() throws {
        guard file.version == 1 else { return }
        guard keys.isOwners else { throw VaultError.upgradeNeeded(path: path, byOwner: true) }
        file.version = VaultFile.version
        keys.convertWriteKeys()
        try replaceSigningKey()
        try replaceTrustKey()
        file.keyEpoch = 1
        file.teamLog = TeamLog.created(vaultID: file.vaultID, keyEpoch: 1, roster: [])
        file.writeGeneration = 0
        file.deviceWrappedHeaderMACKey = []
        for slot in file.groups.indices { file.groups[slot].deviceWrapped = [] }
        file.index = IndexTable(zip(file.index, file.records).map { $0.withDigest(of: $1, itemID: Bytes16.random()) })
        file.sections = file.sections.map { _ in GroupSection(generation: 0) }
        for entry in file.index { pending.listings.insertWhole(ListingPair(groupID: entry.groupID, classID: entry.classID)) }
    }

    /// Seals again the listing blocks the changes left stale: for a pair that keeps its bucket
    /// count, the buckets of the items changed; for one changed whole or grown or shrunk out of
    /// its bucket count, every bucket, spread again. Each is made from the attributes of items
    /// stored since the read, the blocks as they were (unchanged items copied as they are), or
    /// (a v1 file being converted) the records themselves. A pair whose items the keys at hand
    /// cannot all read (bound to another machine) is left without blocks: it is then listed
    /// record by record.
    mutating func sealChangedListings() throws {
        guard !pending.listings.isEmpty else { return }
        let changedPairs = pending.listings.pairs
        let positionsByPair = positionsByPair { changedPairs.contains($0) }
        var made: [ListingPair: [ListingBlock]] = [:]
        for pair in changedPairs {
            made[pair] = try remakeListing(of: pair, positions: positionsByPair[pair] ?? [])
        }
        // Groups this write changed get their blocks in class order; every other group keeps its
        // blocks as they were, in their order: its MACs, which a scoped writer cannot make, cover that order.
        let changedGroups = Set(changedPairs.map(\.groupID))
        var listings: [ListingBlock] = []
        for group in file.groups {
            let blocks = file.listings.filter { $0.groupID == group.groupID }
            guard changedGroups.contains(group.groupID) else {
                listings += blocks
                continue
            }
            let kept = blocks.filter { !changedPairs.contains(ListingPair(groupID: $0.groupID, classID: $0.classID)) }
            let remade = made.filter { $0.key.groupID == group.groupID }.values.flatMap { $0 }
            listings += (kept + remade).sorted { ($0.classID, $0.bucket) < ($1.classID, $1.bucket) }
        }
        file.listings = listings
        pending.listings = ListingChanges()
    }

    /// The blocks `pair` has after this write, whose items are at `positions`: empty when it has
    /// none left, or when one of them cannot be read with the keys at hand.
    private func remakeListing(of pair: ListingPair, positions: [Int]) throws -> [ListingBlock] {
        let old = listingBlocks(of: pair)
        guard !positions.isEmpty, let accessibility = Accessibility(fileID: pair.classID),
            let key = try? keys.listingKey(groupID: pair.groupID, accessibility: accessibility)
        else { return [] }
        let changedItems = pending.listings.wholePairs.contains(pair) ? nil : pending.listings.items[pair]
        let bucketCount: Int
        let stale: Set<Int>
        if let changedItems, Buckets.listing.fits(positions.count, bucketCount: old.count) {
            bucketCount = old.count
            stale = Set(changedItems.map { $0.bucket(among: bucketCount) })
        } else {
            bucketCount = Buckets.listing.count(for: positions.count)
            stale = Set(0..<bucketCount)
        }
        var positionsByBucket: [Int: [Int]] = [:]
        for position in positions {
            let bucket = file.index.itemID(at: position).bucket(among: bucketCount)
            if stale.contains(bucket) { positionsByBucket[bucket, default: []].append(position) }
        }
        // Spread again, every old block is a source; else each bucket's own block is.
        let respread = bucketCount != old.count
        let allPrevious = respread ? old.compactMap { try? openListing($0, bucketCount: old.count) } : []
        var blocks: [ListingBlock] = []
        for bucket in 0..<bucketCount {
            guard stale.contains(bucket) else {
                blocks.append(old[bucket])
                continue
            }
            let previous = respread ? allPrevious : [(try? openListing(old[bucket], bucketCount: bucketCount))].compactMap { $0 }
            guard let plaintext = listingPlaintext(positionsByBucket[bucket] ?? [], previous: previous) else { return [] }
            blocks.append(try SealedListing.seal(plaintext.bytes, key: key, vaultID: file.vaultID, pair: pair, bucket: bucket))
        }
        return blocks
    }

    /// The plaintext of the listing block of the items at `positions`, or nil when one of them can
    /// be read neither from what was stored, nor from a block in `previous`, nor from its record.
    private func listingPlaintext(_ positions: [Int], previous: [OpenedListing]) -> ByteWriter? {
        var w = ByteWriter(capacity: previous.reduce(0) { $0 + $1.plaintext.count } + 128 * pending.storedAttributes.count + 64)
        var cursor = 0
        var byItemID: [Bytes16: (block: Int, fields: Range<Int>)]?
        for position in positions {
            let itemID = file.index.itemID(at: position)
            var found: (block: Int, fields: Range<Int>)?
            if pending.storedAttributes[itemID] == nil, !previous.isEmpty {
                // In the common case one block lists the items in the order the index holds them.
                if previous.count == 1, cursor < previous[0].items.count, previous[0].items[cursor].itemID == itemID {
                    found = (0, previous[0].items[cursor].fields)
                    cursor += 1
                } else {
                    if byItemID == nil {
                        byItemID = [:]
                        for (block, listing) in previous.enumerated() {
                            for item in listing.items where byItemID?[item.itemID] == nil { byItemID?[item.itemID] = (block, item.fields) }
                        }
                    }
                    found = byItemID?[itemID]
                }
            }
            if let found {
                itemID.encode(into: &w)
                w.u32(UInt32(found.fields.count))
                previous[found.block].plaintext.withUnsafeBytes { w.raw(UnsafeRawBufferPointer(rebasing: $0[found.fields])) }
            } else if let attributes = pending.storedAttributes[itemID] ?? (try? openAttributes(at: position)) {
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

    /// Seals the tombstone block of every group whose tombstones changed: its tombstones as read (or
    /// carried), and those added, without repeats, the newest `Tombstone.maxPerGroup`, leaving out
    /// items the file holds again. Blocks of groups that left the header go. Each group's
    /// tombstone block comes first among its blocks.
    mutating func sealTombstones() throws {
        let headerGroups = Set(file.groups.map(\.groupID))
        let changed = pending.tombstones.groups.intersection(headerGroups)
        let orphaned = file.listings.contains { $0.classID == Tombstone.blockClassID && !headerGroups.contains($0.groupID) }
        guard !changed.isEmpty || orphaned else { return }
        var held: Set<Bytes16> = []
        if !changed.isEmpty { for position in file.index.indices { held.insert(file.index.itemID(at: position)) } }
        var tombstoneBlocks: [GroupID: ListingBlock] = [:]
        var otherBlocks: [GroupID: [ListingBlock]] = [:]
        for block in file.listings {
            if block.classID == Tombstone.blockClassID {
                tombstoneBlocks[block.groupID] = block
            } else {
                otherBlocks[block.groupID, default: []].append(block)
            }
        }
        for groupID in changed {
            let kept = try pending.tombstones.carried[groupID] ?? tombstones(of: groupID)
            let list = Tombstone.normalized((kept + pending.tombstones.added[groupID, default: []]).filter { !held.contains($0.itemID) })
            guard !list.isEmpty else {
                tombstoneBlocks[groupID] = nil
                continue
            }
            tombstoneBlocks[groupID] = try SealedGroupBlock.seal(
                list, key: try keys.tombstoneKey(groupID: groupID), vaultID: file.vaultID,
                groupID: groupID)
        }
        file.listings = file.groups.flatMap { group in
            (tombstoneBlocks[group.groupID].map { [$0] } ?? []) + (otherBlocks[group.groupID] ?? [])
        }
        pending.tombstones = TombstoneChanges()
    }

    /// The trash entries of `groupID` that its purge records emptied: the file's and this write's.
    private func purgedDeletions(of groupID: GroupID) throws -> Set<TrashEntry.Deletion> {
        let tombstones = try (pending.tombstones.carried[groupID] ?? tombstones(of: groupID)) + (pending.tombstones.added[groupID] ?? [])
        return Set(tombstones.compactMap(\.purgedDeletion))
    }

    /// Seals the trash block of every group whose trash changed, or holds an item deleted before
    /// `pending.trashPurgeBefore` or one the index holds again (brought back, or kept by a merge): the
    /// block goes when nothing is left. Blocks of groups that left the header go; a group whose
    /// keys this ring lacks keeps its block. A group's trash block comes last among its blocks.
    mutating func sealTrash() throws {
        let headerGroups = Set(file.groups.map(\.groupID))
        var brought: [GroupID: [TrashEntry]] = [:]
        for trashed in pending.trash.brought {
            let attributes = trashed.record.item.attributes
            guard let groupID = keys.groupID(of: attributes.group), headerGroups.contains(groupID) else { continue }
            brought[groupID, default: []].append(try sealTrashed(trashed))
        }
        let candidates = file.groups.map(\.groupID).filter { groupID in
            keys.groups[groupID] != nil
                && (trashBlock(of: groupID) != nil || pending.trash.replaced[groupID] != nil
                    || pending.trash.added[groupID] != nil || brought[groupID] != nil)
        }
        var held: Set<Bytes16> = []
        if !candidates.isEmpty { for position in file.index.indices { held.insert(file.index.itemID(at: position)) } }
        var remade: [GroupID: ListingBlock?] = [:]
        for groupID in candidates {
            let kept: [TrashEntry]
            if let replaced = pending.trash.replaced[groupID] {
                kept = try replaced.map { try sealTrashed($0) }
            } else {
                kept = try trash(of: groupID)
            }
            let changes = (pending.trash.added[groupID] ?? []) + (brought[groupID] ?? [])
            // A purge record this write adds (a merge's other side's) or one a merge brings entries
            // against empties what its deletion left, whichever side kept it.
            let purged = pending.tombstones.added[groupID] != nil || brought[groupID] != nil ? try purgedDeletions(of: groupID) : []
            let list = TrashEntry.normalized(
                (kept + changes).filter { !purged.contains($0.deletion) }, held: held,
                purgeBefore: pending.trashPurgeBefore)
            if changes.isEmpty, pending.trash.replaced[groupID] == nil, list.count == kept.count { continue }
            guard !list.isEmpty else {
                remade[groupID] = .some(nil)
                continue
            }
            remade[groupID] = try SealedGroupBlock.seal(
                list, key: try keys.trashKey(groupID: groupID), vaultID: file.vaultID, groupID: groupID)
        }
        let orphaned = file.listings.contains { $0.classID == TrashEntry.blockClassID && !headerGroups.contains($0.groupID) }
        pending.trash = TrashChanges()
        guard !remade.isEmpty || orphaned else { return }
        file.listings = file.groups.flatMap { group -> [ListingBlock] in
            let blocks = file.listings.filter { $0.groupID == group.groupID }
            guard let replacement = remade[group.groupID] else { return blocks }
            return blocks.filter { $0.classID != TrashEntry.blockClassID } + (replacement.map { [$0] } ?? [])
        }
    }

    /// `trashed` sealed again as a trash entry under the keys at hand (a fresh record id).
    private mutating func sealTrashed(_ trashed: TrashedRecord) throws -> TrashEntry {
        let record = trashed.record
        guard let (_, recordID, sealed) = try sealRecord(record.item, history: record.history, conflicts: record.conflicts) else {
            throw VaultError.locked(nil)
        }
        return TrashEntry(
            itemID: trashed.itemID, deletedAt: trashed.deletedAt, recordID: Bytes16(recordID),
            classID: record.item.attributes.accessibility.fileID, sealed: sealed)
    }
}
