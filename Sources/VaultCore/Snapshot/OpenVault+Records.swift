import FoundationEssentials
import VaultCrypto

// Finding and opening records.
extension OpenVault {
    /// The one position of `positions` (what `query` matched): throws `itemNotFound` (or
    /// `noSuchGroup`) when there is none, and `ambiguous`, listing them, when there are several.
    func single(_ positions: [Int], query: Query) throws -> Int {
        guard let first = positions.first else {
            try requireExisting(query.group)
            throw VaultError.itemNotFound(query)
        }
        guard positions.count == 1 else {
            throw VaultError.ambiguous(try positions.map { try openAttributes(at: $0) })
        }
        return first
    }

    /// Positions (in index order) of the records that match the query, among
    /// the groups this ring holds. A record the ring cannot open throws
    /// `locked` — or is left out when `skipLocked` is set.
    func positions(matching query: Query, skipLocked: Bool = false) throws -> [Int] {
        try matches(query, skipLocked: skipLocked).positions
    }

    /// The attributes of the records that match the query, in index order; see `positions(matching:skipLocked:)`.
    /// Each record is opened once, and its secret is not copied out.
    func attributes(matching query: Query, skipLocked: Bool = false) throws -> [ItemAttributes] {
        try matches(query, skipLocked: skipLocked).attributes
    }

    /// The records that match the query, with the attributes read to match them (side by side: a
    /// listing returns the attributes array as it is, without a copy of 100 000 items).
    func matches(_ query: Query, skipLocked: Bool) throws -> (positions: [Int], attributes: [ItemAttributes]) {
        try judged(heldMatches(query, skipLocked: skipLocked), of: query, skipLocked: skipLocked)
    }

    /// Positions (in index order) of the records a reader will open to answer `query`, throwing as
    /// `positions(matching:)` does. A query that names only groups and a class is answered from
    /// the index alone: each record opened gives its own attributes, so the listing blocks would be
    /// read for nothing (a third of a bulk read's time at 100 000 items).
    func positionsToOpen(matching query: Query) throws -> [Int] {
        guard query.selectsByPlaceOnly else { return try positions(matching: query) }
        precondition(bucketChecks.everyBucket, "a vault opened for lookups only answers lookups by service and account only")
        let wanted = Set(heldGroupIDs(query))
        let classID = query.accessibility?.fileID
        let positions = file.index.indices.filter { position in
            wanted.contains(file.index.groupID(at: position)) && (classID.map { $0 == file.index.classID(at: position) } ?? true)
        }
        return try judged((positions, []), of: query, skipLocked: false).positions
    }

    /// What the records found among the groups this ring holds mean for `query`: a damaged group
    /// named or left as the only answer, and groups this ring cannot open, turn an empty answer into errors.
    private func judged(
        _ found: (positions: [Int], attributes: [ItemAttributes]), of query: Query,
        skipLocked: Bool
    ) throws -> (positions: [Int], attributes: [ItemAttributes]) {
        let damagedGroups = allDamagedGroups
        if !skipLocked, let group = query.group, let damaged = damagedGroups.first(where: { $0.group == group }) {
            throw VaultError.damagedGroup(path: path, group: damaged.group)
        }
        // A search of every group leaves a damaged one out; finding nothing elsewhere, the damage is the answer.
        if found.positions.isEmpty, !skipLocked, let damaged = damagedGroups.first {
            throw VaultError.damagedGroup(path: path, group: damaged.group)
        }
        // Nothing among the groups this ring holds; a group it does not hold may have it: that is locked, not missing.
        if found.positions.isEmpty, !skipLocked,
            file.groups.contains(where: { entry in
                keys.groups[entry.groupID] == nil && (scope?.contains(entry.groupID) ?? true)
                    && !damagedGroups.contains { $0.groupID == entry.groupID }
            })
        {
            throw VaultError.locked(nil)
        }
        return found
    }

    /// The groups `query` searches among those this ring holds.
    private func heldGroupIDs(_ query: Query) -> [GroupID] {
        if let group = query.group { return keys.groupID(of: group).map { [$0] } ?? [] }
        return file.groups.map(\.groupID).filter { keys.groups[$0] != nil }
    }

    private func heldMatches(_ query: Query, skipLocked: Bool) throws -> (positions: [Int], attributes: [ItemAttributes]) {
        let groupIDs = heldGroupIDs(query)
        if groupIDs.isEmpty { return ([], []) }
        var matches: (positions: [Int], attributes: [ItemAttributes]) = ([], [])
        func consider(_ position: Int, check: (ItemAttributes) throws -> Void = { _ in }) throws {
            do {
                let attributes = try openAttributes(at: position)
                try check(attributes)
                if query.matches(attributes) {
                    matches.positions.append(position)
                    matches.attributes.append(attributes)
                }
            } catch VaultError.unlock(.locked) where skipLocked {
            } catch VaultError.keys(.boundToAnotherDevice) where skipLocked {
            }
        }
        if let service = query.service, let account = query.account {
            for groupID in groupIDs {
                let tag = Bytes16(try keys.lookupTag(groupID: groupID, service: service, account: account))
                guard let positions = checkedLookup(groupID, tag: tag) else { continue }
                for position in positions {
                    try consider(position) { attributes in
                        guard attributes.service == service, attributes.account == account else {
                            throw VaultError.corrupted(path: path, detail: .violates(.lookupTagMismatch))
                        }
                    }
                }
            }
            return matches
        }
        // Every other query reads each (group, class) from its listing block: one key and one open per pair.
        precondition(bucketChecks.everyBucket, "a vault opened for lookups only answers lookups by service and account only")
        let wanted = Set(groupIDs)
        let positionsByPair = positionsByPair { pair in
            wanted.contains(pair.groupID) && (query.accessibility.map { $0.fileID == pair.classID } ?? true)
        }
        var found: (positions: [Int], attributes: [ItemAttributes]) = ([], [])
        for (pair, positions) in positionsByPair {
            var listed: ListedItems?
            do {
                listed = try listedItems(of: pair)
            } catch VaultError.unlock(.locked) where skipLocked {
                continue
            } catch VaultError.keys(.boundToAnotherDevice) where skipLocked {
                continue
            }
            guard listed != nil else {
                for position in positions { try consider(position) }
                continue
            }
            found.positions.reserveCapacity(found.positions.count + positions.count)
            found.attributes.reserveCapacity(found.attributes.count + positions.count)
            for position in positions {
                guard let attributes = try listed!.take(file.index.itemID(at: position)) else {
                    throw VaultError.corrupted(path: path, detail: .violates(.listingNotItsGroupsItems))
                }
                if query.matches(attributes) {
                    found.positions.append(position)
                    found.attributes.append(attributes)
                }
            }
            guard listed!.areAllTaken else {
                throw VaultError.corrupted(path: path, detail: .violates(.listingNotItsGroupsItems))
            }
        }
        found.positions += matches.positions
        found.attributes += matches.attributes
        // Pairs were read one after another; put the items back in index order (most often they are).
        if zip(found.positions, found.positions.dropFirst()).allSatisfy({ $0 < $1 }) { return found }
        let order = found.positions.indices.sorted { found.positions[$0] < found.positions[$1] }
        return (order.map { found.positions[$0] }, order.map { found.attributes[$0] })
    }

    /// How many records of the groups in scope this ring cannot open (locked or bound to another device).
    /// Decides by keys, not by decrypting: the base key of (group, class) answers for all its records.
    func lockedCount(in group: AccessGroup?) -> Int {
        let groupID = group.flatMap { keys.groupID(of: $0) }
        func isLocked(_ pair: ListingPair) -> Bool {
            if group != nil, pair.groupID != groupID { return false }
            if let scope, !scope.contains(pair.groupID) { return false }
            if damagedGroups.contains(where: { $0.groupID == pair.groupID }) { return false }
            guard keys.groups[pair.groupID] != nil else { return group == nil }
            guard let accessibility = Accessibility(fileID: pair.classID) else { return false }
            guard (try? keys.baseKey(groupID: pair.groupID, classID: pair.classID)) != nil else { return true }
            return accessibility.isDeviceBound && keys.deviceKey == nil
        }
        // Decided once per (group, class), counted over the index without decoding it; neighbours mostly share a pair.
        var decided: [ListingPair: Bool] = [:]
        var last: (pair: ListingPair, locked: Bool)?
        var count = 0
        for position in file.index.indices {
            let pair = ListingPair(groupID: file.index.groupID(at: position), classID: file.index.classID(at: position))
            if last?.pair != pair {
                let locked = decided[pair] ?? isLocked(pair)
                decided[pair] = locked
                last = (pair, locked)
            }
            if last?.locked == true { count += 1 }
        }
        return count
    }

    /// Decrypts the record at `position`.
    func openRecord(at position: Int) throws -> Item {
        try openRecord(at: position, decode: RecordCodec.decodePlaintext)
    }

    /// Decrypts the record at `position` whole: the item, the earlier secrets it keeps (newest first)
    /// and the other versions of its merge conflicts.
    func openWholeRecord(at position: Int) throws -> OpenedRecord {
        try openRecord(at: position, decode: decodeWholeRecord)
    }

    /// A record's plaintext read whole (see `openWholeRecord(at:)`).
    func decodeWholeRecord(_ plaintext: SecretBytes, group: AccessGroup, accessibility: Accessibility) throws -> OpenedRecord {
        let item = try RecordCodec.decodePlaintext(plaintext, group: group, accessibility: accessibility)
        return OpenedRecord(
            item: item, history: try RecordCodec.decodeHistory(plaintext),
            conflicts: try openingVersionsElsewhere(checkingVersionsOfItsGroup(RecordCodec.decodeConflicts(plaintext), of: item.attributes))
        )
    }

    /// `conflicts`, each other version kept in the record's own plaintext (kind 1) being of the
    /// record's group and class: a version of another is sealed under that pair's keys (kind 2), so
    /// one kept here is damage naming the record — save in files before format v3, where it opens
    /// marked `isUnsealedFromAnotherGroup`.
    private func checkingVersionsOfItsGroup(_ conflicts: [ItemConflict], of attributes: ItemAttributes) throws -> [ItemConflict] {
        try conflicts.map { conflict in
            guard let other = conflict.other?.attributes,
                other.group != attributes.group || other.accessibility != attributes.accessibility
            else { return conflict }
            guard file.version < 3 else {
                throw VaultError.corrupted(path: path, detail: .conflictVersionOutsideItsGroup(item: attributes.key))
            }
            var marked = conflict
            marked.isUnsealedFromAnotherGroup = true
            return marked
        }
    }

    /// Decrypts the record at `position`, and says whether a merge left it in conflict.
    func openRecordNotingConflicts(at position: Int) throws -> (item: Item, inConflict: Bool) {
        try openRecord(at: position) { plaintext, group, accessibility in
            (
                try RecordCodec.decodePlaintext(plaintext, group: group, accessibility: accessibility),
                try RecordCodec.hasConflicts(plaintext)
            )
        }
    }

    /// Decrypts the record at `position` and reads its attributes, leaving the secret where it is.
    func openAttributes(at position: Int) throws -> ItemAttributes {
        try openRecord(at: position, decode: RecordCodec.decodeAttributes)
    }

    private func openRecord<Decoded>(
        at position: Int,
        decode: (SecretBytes, AccessGroup, Accessibility) throws -> Decoded
    ) throws -> Decoded {
        let (plaintext, group, accessibility) = try openPlaintext(at: position)
        do {
            return try decode(plaintext, group, accessibility)
        } catch let error as MalformedInput {
            throw VaultError.corrupted(path: path, detail: error.damage)
        }
    }

    private func openPlaintext(at position: Int) throws -> (SecretBytes, AccessGroup, Accessibility) {
        let entry = try checkedEntry(at: position)
        guard let accessibility = Accessibility(fileID: entry.classID) else {
            throw VaultError.corrupted(path: path, detail: .unknownClass(in: .indexEntry))
        }
        if let damaged = damagedGroups.first(where: { $0.groupID == entry.groupID }) {
            throw VaultError.damagedGroup(path: path, group: damaged.group)
        }
        guard keys.groups[entry.groupID] != nil else { throw VaultError.locked(accessibility) }
        // A copy of the record, so what its digest is checked over is what opens.
        let sealed = file.records.stored(at: position).bytes
        if file.version >= 2, !sealed.withUnsafeBytes(entry.digestMatches) {
            throw VaultError.corrupted(path: path, detail: .violates(.recordDigestMismatch))
        }
        if let plaintext = lastOpened.plaintext(recordID: entry.id, digest: entry.digest), let group = keys.groups[entry.groupID]?.group {
            return (plaintext, group, accessibility)
        }
        let (plaintext, group) = try sealed.withUnsafeBytes {
            try openSealed($0, recordID: entry.id, groupID: entry.groupID, accessibility: accessibility)
        }
        lastOpened.keep(plaintext, recordID: entry.id, digest: entry.digest)
        return (plaintext, group, accessibility)
    }

    /// Opens a record sealed under the record key of (`groupID`, `accessibility`, `recordID`): one of
    /// the index's, or one the trash keeps. Throws `locked` or `boundToAnotherDevice` without its
    /// keys, `corrupted` when it does not open.
    func openSealed(
        _ sealed: UnsafeRawBufferPointer, recordID: Bytes16, groupID: GroupID,
        accessibility: Accessibility
    ) throws -> (SecretBytes, AccessGroup) {
        guard let group = keys.groups[groupID]?.group else { throw VaultError.locked(accessibility) }
        let key: SecretBytes
        do {
            key = try keys.recordKey(groupID: groupID, accessibility: accessibility, recordID: recordID)
        } catch KeyRingError.missingDeviceKey {
            throw VaultError.boundToAnotherDevice(group: group, accessibility: accessibility)
        } catch {
            throw VaultError.locked(accessibility)
        }
        do {
            let address = RecordAddress(vaultID: file.vaultID, recordID: recordID, groupID: groupID, classID: accessibility.fileID)
            return (try SealedRecord.open(sealed, key: key, at: address, with: recordOpener), group)
        } catch {
            throw VaultError.corrupted(path: path, detail: .doesNotOpen(.record))
        }
    }

    /// `conflicts` with each version sealed under another (group, class) opened where this ring holds
    /// that pair's keys; left sealed where it does not.
    func openingVersionsElsewhere(_ conflicts: [ItemConflict]) throws -> [ItemConflict] {
        try conflicts.map { conflict in
            guard let elsewhere = conflict.sealedElsewhere, let group = keys.groups[elsewhere.groupID]?.group,
                let accessibility = Accessibility(fileID: elsewhere.classID),
                let key = try? keys.recordKey(
                    groupID: elsewhere.groupID, accessibility: accessibility, recordID: Bytes16(elsewhere.recordID))
            else {
                return conflict
            }
            let address = RecordAddress(
                vaultID: file.vaultID, recordID: Bytes16(elsewhere.recordID), groupID: elsewhere.groupID,
                classID: elsewhere.classID)
            guard let plaintext = try? SealedRecord.open(elsewhere.sealed, key: key, at: address) else {
                throw VaultError.corrupted(path: path, detail: .doesNotOpen(.conflictOtherVersion))
            }
            var opened = conflict
            do {
                opened.other = try RecordCodec.decodePlaintext(plaintext, group: group, accessibility: accessibility)
            } catch let error as MalformedInput {
                throw VaultError.corrupted(path: path, detail: error.damage)
            }
            // `sealedElsewhere` stays: which group's keys this version is under, when they change (`rotateGroupKey`).
            return opened
        }
    }
}

/// A record opened whole: what `store` keeps when it seals the item again.
struct OpenedRecord {
    var item: Item
    /// Earlier secrets, newest first.
    var history: [SecretRevision]
    /// The other versions a merge left, until `vault resolve` chooses.
    var conflicts: [ItemConflict]
}
