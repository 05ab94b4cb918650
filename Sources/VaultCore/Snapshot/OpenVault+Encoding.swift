import FoundationEssentials
import VaultCrypto

// The file for writing: every MAC, signature and seal a write makes again.
extension OpenVault {
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
        precondition(keys.masterKey == nil || file.hasTeamLog, "the owner's write converts a file to the team log first")
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
        let isOwner = keys.headerMACKey != nil
        if isOwner { try unwrapSigningKey() }
        if isOwner { try refreshMemberSlots() }
        if isOwner { try sealTeamLog() }
        if isOwner { file.writeGeneration += 1 }
        if isOwner, file.hasTeamLog { file.writeID = SecureRandom.bytes(VaultFile.writeIDSize) }
        // Groups a scoped writer does not hold keep their section: their entries cannot have changed.
        let remade = file.groups.indices.filter { isOwner || (scope?.contains(file.groups[$0].groupID) ?? false) }
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
            file.sections[slot].indexMAC = try keys.groupMAC(.index, groupID: groupID, context: context, bucketDigests: digests, listings: file.listings)
            file.sections[slot].readMAC = try keys.groupMAC(.read, groupID: groupID, context: context, bucketDigests: digests, listings: file.listings)
            groupsVerifiedByWriteKey.insert(groupID)
        }
        if isOwner {
            try signTrustStatement()
            try sealTrustKeyWithTPIfNeeded()
            guard let signingKey, let wrapKey = keys.wrapKey else { throw VaultError.locked(nil) }
            file.wrappedSigningKey = try AESGCM.seal(signingKey, key: wrapKey.secret, aad: AAD.signingKey(vaultID: file.vaultID))
        }
        let parameters = file.encodeHeaderParameters()
        let checksum = SHA256.hash(parameters)
        if let signingKey, isOwner {
            file.headerSignature = try Ed25519.sign(AAD.headerSignature(header: parameters + checksum), privateKey: signingKey)
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
        guard keys.masterKey != nil else { throw VaultError.upgradeNeeded(path: path, byOwner: true) }
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

    /// A class key sealed under the key-wrap key (needs the master key).
    static func wrapClassKey(_ classKey: ClassKey, _ classID: ClassID, _ keys: KeyRing) throws -> [UInt8] {
        guard let wrapKey = keys.wrapKey else { throw VaultError.locked(nil) }
        return try AESGCM.seal(classKey.secret, key: wrapKey.secret, aad: AAD.classKey(vaultID: keys.vaultID, classID: classID))
    }
}
