import VaultCrypto

/// The vault file as parsed, before any key is applied: every field of
/// docs/FORMAT.md in order, for format v2 (written) and v1 (read, and
/// converted on the first write). Decoding checks structure, limits and the
/// header checksum; the header MAC and the groups' MACs are checked by
/// `OpenVault`, which holds the keys.
struct VaultFile {
    static let magic: [UInt8] = [0x89, 0x56, 0x41, 0x55, 0x4C, 0x54, 0x0D, 0x0A]  // "\x89VAULT\r\n"
    /// The version every write of the owner produces: v2's layout and keys, with the team log where
    /// v2 had its member removals, a write id after the write generation, and the trust statement
    /// over the log's head and the member slots.
    static let version: UInt16 = 3
    /// The versions this build reads.
    static let readableVersions: ClosedRange<UInt16> = 1...3
    /// The size of the write id (v3).
    static let writeIDSize = 16

    /// The version whose keys a file of `version` uses: v3 changed the header, not a key, so
    /// credentials and grants of a v3 file are v2's.
    static func keySchedule(of version: UInt16) -> UInt16 { min(version, 2) }

    /// The bytes between the vault id and the device check: v2's counters, and v3's write id after them.
    static func countersAndWriteIDSize(version: UInt16) -> Int {
        (version >= 2 ? countersSize : 0) + (version >= 3 ? writeIDSize : 0)
    }
    static let idSize = 16
    static let checkSize = 16
    static let digestSize = 32
    static let wrappedKeySize = 12 + 32 + 16
    /// v2's counters after the vault id: key epoch, write generation (`u64` each).
    static let countersSize = 2 * 8
    static let maxKeyslots = 16
    static let maxGroups = 4096
    static let maxRecords = 10_000_000
    static let maxRecordBytes = (1 << 20) + 64 * 1024
    /// More than the longest header parameters and checksum can be (16 keyslots, 64 member
    /// slots of at most 33 KiB, 255 classes, 4096 groups).
    static let maxHeaderBytes = 1 << 23

    /// 1 or 2; what a v1 file holds that v2 does not (device grants, the
    /// device-sealed header MAC key) is kept only to read it.
    var version: UInt16
    var vaultID: [UInt8]
    /// Raised by every rekey, revoke and group deletion; never goes back (v2; 0 in v1).
    var keyEpoch: UInt64
    /// Raised by every write of the owner (v2; 0 in v1).
    var writeGeneration: UInt64
    /// v3: fresh random bytes for every write of the owner or a full member, in every group MAC:
    /// group sections of two such writes never combine into a file that verifies.
    var writeID: [UInt8] = []
    /// HMAC of the device key that device-bound items are sealed with.
    var deviceCheck: [UInt8]
    /// v1 only: the header MAC key sealed under the device key.
    var deviceWrappedHeaderMACKey: [UInt8]
    var keyslots: [Keyslot]
    /// v2: public-key keyslots, one per member (`MemberSlot`), after the keyslots.
    var members: [MemberSlot] = []
    /// v2 only: the sealed record of member removals of files before the team log, kept as read
    /// (its digest is in a v2 trust statement) until the owner's write converts the file.
    var memberRemovals: [UInt8] = []
    /// v3: the team log, after the member slots (`TeamLog`).
    var teamLog: TeamLog? = nil
    /// Whether the file has the team log (format v3).
    var hasTeamLog: Bool { version >= 3 }
    /// v2: the key epoch's signing key (Ed25519), after the member slots: its public key, and its
    /// private key sealed under WK (the owner and full members sign headers with it).
    var signingPublicKey = SigningPublicKey(bytes: [])
    var wrappedSigningKey: [UInt8] = []
    /// v2: the vault's trust key (Ed25519), after the signing key: its public key, whose SHA-256 is
    /// the trust fingerprint readers pin; its private key sealed under TWK, which only the master
    /// key derives (the owner's); and its signature of the trust statement (vault id, key epoch,
    /// signing public key), which vouches for this epoch's signing key.
    var trustPublicKey = TrustPublicKey(bytes: [])
    var wrappedTrustKey: [UInt8] = []
    var trustSignature: [UInt8] = []
    /// v2: the Ed25519 signature of the header parameters and checksum under the signing key, after the header MAC.
    var headerSignature: [UInt8] = []
    var classes: [WrappedClassKey]
    var groups: [WrappedGroupKey]
    var index: IndexTable
    /// One per group, in `groups` order: its generation and MACs over its index entries.
    var sections: [GroupSection]
    /// v2: one sealed listing per (group, class) that has items, in header group order then class id:
    /// what `list` reads instead of every record. A pair may lack one (it is then listed record by record).
    var listings: [ListingBlock] = []
    /// Sealed records, in index order.
    var records: RecordList

    /// The size of one index entry in this file's version.
    var entrySize: Int { IndexEntry.size(version: version) }

    /// The vault id of a file, read without parsing the rest; empty when the file is too short.
    static func peekVaultID(_ bytes: [UInt8]) -> [UInt8] {
        let start = magic.count + 2
        guard bytes.count >= start + idSize else { return [] }
        return Array(bytes[start..<start + idSize])
    }

    static func peekVaultID(_ file: FileBytes) -> [UInt8] { peekVaultID(file.prefix(magic.count + 2 + idSize)) }

    /// The key epoch of a v2 file, read without parsing the rest; nil for v1 or a file too short.
    static func peekKeyEpoch(_ file: FileBytes) -> UInt64? {
        let start = magic.count + 2 + idSize
        let bytes = file.prefix(start + 8)
        guard bytes.count >= start + 8, bytes.starts(with: magic), bytes[magic.count] == 0, bytes[magic.count + 1] >= 2 else { return nil }
        return bytes[start..<start + 8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    /// The member slots as the header holds them: what the trust statement's digest covers.
    var encodedMemberSlots: [UInt8] {
        var w = ByteWriter(capacity: 1 + members.count * 256)
        w.u8(UInt8(members.count))
        for slot in members { slot.encode(into: &w) }
        return w.bytes
    }

    /// The bytes the header checksum and MAC cover (everything before the checksum).
    func encodeHeaderParameters() -> [UInt8] {
        precondition(version >= 2, "a v1 file is converted before it is written")
        var w = ByteWriter(capacity: 512)
        w.raw(VaultFile.magic)
        w.u16(version)
        w.raw(vaultID)
        w.u64(keyEpoch)
        w.u64(writeGeneration)
        if hasTeamLog { w.raw(writeID) }
        w.raw(deviceCheck)
        w.u8(UInt8(keyslots.count))
        for slot in keyslots { slot.encode(into: &w) }
        w.raw(encodedMemberSlots)
        if let teamLog { teamLog.encode(into: &w) } else { w.lengthPrefixed(memberRemovals) }
        w.raw(signingPublicKey.bytes)
        w.raw(wrappedSigningKey)
        w.raw(trustPublicKey.bytes)
        w.raw(wrappedTrustKey)
        w.raw(trustSignature)
        w.u8(UInt8(classes.count))
        for entry in classes {
            w.classID(entry.classID)
            w.raw(entry.wrapped)
        }
        w.u32(UInt32(groups.count))
        for group in groups { group.encode(into: &w, version: version) }
        return w.bytes
    }

    /// The whole file, given its header parameters (from `encodeHeaderParameters()`)
    /// and the header MAC over parameters and checksum.
    func encode(parameters: [UInt8], checksum: [UInt8], headerMAC: [UInt8]) -> [UInt8] {
        StoredBytes.joined(encodePieces(parameters: parameters, checksum: checksum, headerMAC: headerMAC))
    }

    /// The whole file as `encode` makes it, in pieces to write back to back: what is new
    /// in memory, and the index, listing blocks and runs of records that are still in the
    /// file as read, so a write need not copy them through memory.
    func encodePieces(parameters: [UInt8], checksum: [UInt8], headerMAC: [UInt8]) -> [StoredBytes] {
        var w = ByteWriter(capacity: parameters.count + 2 * VaultFile.digestSize + 4)
        w.raw(parameters)
        w.raw(checksum)
        w.raw(headerMAC)
        w.raw(headerSignature)
        w.u32(UInt32(index.count))
        var pieces = [StoredBytes(w.bytes), index.stored]
        w = ByteWriter(
            capacity: sections.reduce(4 + ListingBlock.fixedSize) { $0 + GroupSection.size(bucketCount: $1.bucketDigests.count) })
        for section in sections { section.encode(into: &w) }
        w.u32(UInt32(listings.count))
        for block in listings {
            block.encodeFixedFields(into: &w)
            pieces.append(StoredBytes(w.bytes))
            pieces.append(block.sealed)
            w = ByteWriter(capacity: ListingBlock.fixedSize)
        }
        pieces.append(StoredBytes(w.bytes))
        pieces += records.runs
        return pieces.filter { $0.count > 0 }
    }

    /// Parses a whole file. Throws `MalformedInput` for anything that does not
    /// follow the format, including a header checksum mismatch and trailing bytes.
    static func decode(_ bytes: [UInt8]) throws -> Decoded {
        try decode(FileBytes(bytes))
    }

    /// A file as parsed: besides its fields, private copies of the bytes its MACs cover. A
    /// mapped file can change under the reader (another program writing it in place), so what
    /// is checked must be what is used: the header and the index are copied once, and checked
    /// and read only from the copies.
    struct Decoded {
        let file: VaultFile
        let headerMAC: [UInt8]
        let parametersEnd: Int
        /// The header parameters and their checksum, as the file held them.
        let header: [UInt8]
        /// The index as the file held it (v1's 41-byte entries for a v1 file); empty when read in place.
        let encodedIndex: [UInt8]
    }

    /// Parses the file in `source`, copying what the structure and the MACs need: the header, the
    /// record count, the index, the group sections, each listing block's fixed fields and length.
    /// The records and listing blocks' sealed bytes stay where they are, the records checked only
    /// for their lengths; each is copied before its digest is checked. Throws as `decode(_:)` does.
    /// With `indexInPlace` a v2 index is not copied: its table reads the entries in `source` (for a
    /// read that only looks items up, which copies out and checks the one bucket it reads).
    static func decode(_ source: FileBytes, indexInPlace: Bool = false) throws -> Decoded {
        // Nearly every header fits the first 64 KiB; one that does not (thousands of groups) is read again, as long as a header can be.
        let (decoded, parametersEnd, prefix) =
            try (try? decodeHeader(source.prefix(1 << 16))) ?? decodeHeader(source.prefix(maxHeaderBytes))
        var file = decoded
        let header = Array(prefix[0..<parametersEnd + digestSize])
        var offset = parametersEnd + digestSize
        func reader(_ count: Int, _ expected: Damage.Extent) throws -> ByteReader {
            guard count >= 0, source.count - offset >= count else {
                throw MalformedInput(.truncated(expected: expected, offset: offset))
            }
            defer { offset += count }
            return ByteReader(source[offset..<offset + count])
        }
        let headerMAC = try reader(digestSize, .headerMAC).bytes
        if file.version >= 2 { file.headerSignature = try reader(Ed25519.signatureSize, .headerSignature).bytes }
        var countReader = try reader(4, .recordCount)
        let recordCount = Int(try countReader.u32())
        let entrySize = IndexEntry.size(version: file.version)
        guard recordCount <= maxRecords, recordCount * entrySize <= source.count - offset else {
            throw MalformedInput(.count(.indexRecords, recordCount))
        }
        let indexRange = offset..<offset + recordCount * entrySize
        var encodedIndex: [UInt8] = []
        if file.version == 1 {
            encodedIndex = source[indexRange]
            file.index = IndexTable(encodedIndex.withUnsafeBytes { IndexEntry.decode(all: $0, version: 1) })
        } else if indexInPlace {
            file.index = IndexTable(inPlace: StoredBytes(source, indexRange))
        } else {
            encodedIndex = source[indexRange]
            file.index = IndexTable(encoded: encodedIndex)
        }
        offset = indexRange.upperBound
        file.sections = try file.groups.map { _ in
            try GroupSection.decode(version: file.version) { try reader($0, .groupSection) }
        }
        if file.version >= 2 {
            var countReader = try reader(4, .listingCount)
            let count = Int(try countReader.u32())
            // At most one block per (group, class) and a tombstone block per group, and one more per record (a bucket is seldom empty, never mostly).
            guard count <= file.groups.count * (Accessibility.allCases.count + 1) + recordCount,
                count <= (source.count - offset) / ListingBlock.fixedSize
            else {
                throw MalformedInput(.count(.listingBlocks, count))
            }
            for _ in 0..<count {
                var fields = try reader(ListingBlock.fixedSize, .listingBlock)
                var block = try ListingBlock.decodeFixedFields(from: &fields)
                let length = Int(try fields.u32())
                guard length <= ListingBlock.maxSealedBytes else {
                    throw MalformedInput(.lengthOverLimit(length, limit: ListingBlock.maxSealedBytes))
                }
                guard source.count - offset >= length else {
                    throw MalformedInput(.truncated(expected: .bytes(length), offset: offset))
                }
                block.sealed = StoredBytes(source, offset..<offset + length)
                offset += length
                file.listings.append(block)
            }
        }
        var offsets = [Int](repeating: 0, count: recordCount + 1)
        offsets[0] = offset
        for position in 0..<recordCount {
            let length = Int(file.index.length(at: position))
            guard length <= maxRecordBytes else { throw MalformedInput(.count(.recordBytes, length)) }
            guard source.count - offset >= length else {
                throw MalformedInput(.truncated(expected: .bytes(length), offset: offset))
            }
            offset += length
            offsets[position + 1] = offset
        }
        guard offset == source.count else { throw MalformedInput(.count(.bytesAfterLastRecord, source.count - offset)) }
        file.records = RecordList(file: source, offsets: offsets)
        return Decoded(file: file, headerMAC: headerMAC, parametersEnd: parametersEnd, header: header, encodedIndex: encodedIndex)
    }

    /// The header parameters of a file (everything before the checksum) from `bytes`, its first
    /// bytes, with the checksum checked; index, sections, listings and records left empty. Returns `bytes` too.
    private static func decodeHeader(_ bytes: [UInt8]) throws -> (file: VaultFile, parametersEnd: Int, bytes: [UInt8]) {
        var r = ByteReader(bytes)
        guard Array(try r.raw(magic.count)) == magic else { throw MalformedInput(.notA(.vaultFile)) }
        let version = try r.u16()
        guard readableVersions.contains(version) else {
            throw MalformedInput(
                .unsupportedVersion(
                    .vaultFile, found: Int(version), reads: Int(readableVersions.lowerBound)...Int(readableVersions.upperBound)))
        }
        let vaultID = Array(try r.raw(idSize))
        let keyEpoch = version >= 2 ? try r.u64() : 0
        let writeGeneration = version >= 2 ? try r.u64() : 0
        let writeID = version >= 3 ? Array(try r.raw(writeIDSize)) : []
        let deviceCheck = Array(try r.raw(checkSize))
        let deviceWrappedHeaderMACKey = version == 1 ? Array(try r.lengthPrefixed(limit: wrappedKeySize)) : []
        let slotCount = Int(try r.u8())
        guard (1...maxKeyslots).contains(slotCount) else { throw MalformedInput(.count(.keyslots, slotCount)) }
        var keyslots: [Keyslot] = []
        for _ in 0..<slotCount { keyslots.append(try Keyslot.decode(from: &r)) }
        var members: [MemberSlot] = []
        var signingPublicKey = SigningPublicKey(bytes: []), wrappedSigningKey: [UInt8] = []
        var trustPublicKey = TrustPublicKey(bytes: []), wrappedTrustKey: [UInt8] = [], trustSignature: [UInt8] = []
        var memberRemovals: [UInt8] = []
        var teamLog: TeamLog?
        if version >= 2 {
            let memberCount = Int(try r.u8())
            guard memberCount <= MemberSlot.maxMembers else { throw MalformedInput(.count(.memberSlots, memberCount)) }
            for _ in 0..<memberCount { members.append(try MemberSlot.decode(from: &r)) }
            if version >= 3 {
                teamLog = try TeamLog.decode(from: &r, vaultID: vaultID)
            } else {
                // 1 024 removals of 64 bytes, a count and the seal: the layout files before the team log kept.
                memberRemovals = Array(try r.lengthPrefixed(limit: 2 + 1024 * 64 + 28))
                guard memberRemovals.isEmpty || memberRemovals.count > 28 else {
                    throw MalformedInput(.violates(.memberRemovalsShorterThanSeal))
                }
            }
            signingPublicKey = SigningPublicKey(bytes: Array(try r.raw(Ed25519.keySize)))
            wrappedSigningKey = Array(try r.raw(wrappedKeySize))
            trustPublicKey = TrustPublicKey(bytes: Array(try r.raw(Ed25519.keySize)))
            wrappedTrustKey = Array(try r.raw(wrappedKeySize))
            trustSignature = Array(try r.raw(Ed25519.signatureSize))
        }
        let classCount = Int(try r.u8())
        var classes: [WrappedClassKey] = []
        for _ in 0..<classCount {
            classes.append(WrappedClassKey(classID: try r.classID(), wrapped: Array(try r.raw(wrappedKeySize))))
        }
        let groupCount = Int(try r.u32())
        guard groupCount <= maxGroups else { throw MalformedInput(.count(.groups, groupCount)) }
        var groups: [WrappedGroupKey] = []
        for _ in 0..<groupCount { groups.append(try WrappedGroupKey.decode(from: &r, version: version)) }
        let parametersEnd = r.offset
        let checksum = Array(try r.raw(digestSize))
        guard constantTimeEquals(checksum, SHA256.hash(Array(bytes[0..<parametersEnd]))) else {
            throw MalformedInput(.violates(.headerChecksumMismatch))
        }
        var file = VaultFile(
            version: version, vaultID: vaultID, keyEpoch: keyEpoch, writeGeneration: writeGeneration,
            deviceCheck: deviceCheck, deviceWrappedHeaderMACKey: deviceWrappedHeaderMACKey,
            keyslots: keyslots, members: members, signingPublicKey: signingPublicKey,
            wrappedSigningKey: wrappedSigningKey, trustPublicKey: trustPublicKey,
            wrappedTrustKey: wrappedTrustKey, trustSignature: trustSignature, classes: classes,
            groups: groups, index: [], sections: [], listings: [], records: RecordList())
        file.memberRemovals = memberRemovals
        file.teamLog = teamLog
        file.writeID = writeID
        guard version < 3 || teamLog?.headEpoch == keyEpoch else {
            throw MalformedInput(.violates(.keyEpochNotTheLogs))
        }
        return (file, parametersEnd, bytes)
    }
}
