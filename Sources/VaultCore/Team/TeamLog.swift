import VaultCrypto

/// Who may read what, as an append-only log of the owner's changes (docs/FORMAT.md, "Team log"):
/// members added and removed, re-keys, group keys replaced, groups deleted, and joins of two
/// branches. Each entry names its parent(s) by hash, so a log holds its whole history and one log
/// descends from another exactly when it holds the other's head. The entries' kinds, key epochs,
/// parents and payload digests are in clear, so a reader without the wrap key can check the head
/// the trust statement signs; the payloads (names, recipients, scopes) are sealed under WK. The
/// roster, the scopes and the key epoch are the log folded up (`state`); nothing else in the file
/// changes them.
struct TeamLog: Equatable {
    /// The most entries a log holds.
    static let maxEntries = 16_384
    static let hashSize = 32
    /// The parent of the first entry.
    static let noParent = [UInt8](repeating: 0, count: hashSize)

    /// One entry as the file holds it in clear.
    struct Entry: Equatable {
        enum Kind: UInt8 {
            case created = 1, memberAdded, memberRemoved, rekeyed, groupKeyReplaced, groupDeleted, joined, envNamesAllowed
        }
        let kind: Kind
        /// The key epoch the change raised the vault to: above every parent's.
        let keyEpoch: UInt64
        /// The previous entry's hash (`noParent` for the first); a join names both heads it joins, lower first.
        let parents: [[UInt8]]
        /// SHA-256("vault team log payload" ‖ vault id ‖ payload).
        let payloadDigest: [UInt8]
        /// Kind 8 (`envNamesAllowed`) only: its change in clear as well as sealed, so a reader
        /// without the wrap key (a scoped credential, CI) folds the allowed names; the entry's hash,
        /// and so the head the trust statement signs, covers it. Empty for every other kind.
        var clearChange: [UInt8] = []

        func encode(into w: inout ByteWriter) {
            w.u8(kind.rawValue)
            w.u64(keyEpoch)
            w.u8(UInt8(parents.count))
            for parent in parents { w.raw(parent) }
            w.raw(payloadDigest)
            if kind == .envNamesAllowed {
                w.u16(UInt16(clearChange.count))
                w.raw(clearChange)
            }
        }

        /// SHA-256("vault team log entry" ‖ vault id ‖ the entry as encoded).
        func hash(vaultID: [UInt8]) -> [UInt8] {
            var w = ByteWriter(capacity: 128)
            w.raw(KeyLabel.teamLogEntry.bytes)
            w.raw(vaultID)
            encode(into: &w)
            return SHA256.hash(w.bytes)
        }
    }

    let vaultID: [UInt8]
    private(set) var entries: [Entry] = []
    /// Each entry's hash, in order.
    private(set) var hashes: [[UInt8]] = []
    /// The payloads sealed as the file holds them (`sealPayloads`).
    private(set) var sealedPayloads: [UInt8] = []
    /// The payloads in clear, once opened or appended: what is sealed again under a new wrap key.
    private(set) var payloads: [[UInt8]]? = nil
    /// Whether `sealedPayloads` no longer matches (an entry appended, or the wrap key replaced).
    private(set) var needsSealing = false

    init(vaultID: [UInt8]) {
        self.vaultID = vaultID
    }

    /// The hash of the last entry: what the trust statement signs.
    var head: [UInt8] { hashes.last ?? TeamLog.noParent }
    /// The key epoch of the last entry: the vault's.
    var headEpoch: UInt64 { entries.last?.keyEpoch ?? 0 }
    var isEmpty: Bool { entries.isEmpty }

    /// Whether this log holds `other`'s whole history (its head), so it descends from it or is it.
    func descends(from other: TeamLog) -> Bool {
        other.isEmpty || hashes.contains(other.head)
    }

    // MARK: appending

    /// Appends `change` at `keyEpoch` (above the head's), its payload salted with 16 random bytes
    /// (a join's is derived from its parents, so two owners joining the same heads agree).
    /// The payloads must be open.
    mutating func append(_ change: TeamChange, keyEpoch: UInt64, parents given: [[UInt8]]? = nil) {
        precondition(payloads != nil, "the team log is appended to only once opened")
        precondition(keyEpoch > headEpoch, "a team log entry raises the key epoch")
        let parents = given ?? [head]
        let salt =
            change.kind == .joined
            ? Array(SHA256.hash(KeyLabel.teamLogJoin.bytes + parents.joined()).prefix(16))
            : SecureRandom.bytes(16)
        let payload = salt + change.encoded()
        let entry = Entry(
            kind: change.kind, keyEpoch: keyEpoch, parents: parents, payloadDigest: payloadDigest(payload),
            clearChange: change.kind == .envNamesAllowed ? change.encoded() : [])
        entries.append(entry)
        hashes.append(entry.hash(vaultID: vaultID))
        payloads!.append(payload)
        needsSealing = true
    }

    /// Takes `other`'s entry at `index` as it is (a join gathers both branches' entries).
    mutating func adopt(entryAt index: Int, of other: TeamLog) {
        precondition(payloads != nil && other.payloads != nil, "only open logs are joined")
        entries.append(other.entries[index])
        hashes.append(other.hashes[index])
        payloads!.append(other.payloads![index])
        needsSealing = true
    }

    /// After the wrap key changed: the payloads are sealed again under the new one before the next write.
    mutating func markWrapKeyChanged() {
        needsSealing = true
    }

    private func payloadDigest(_ payload: [UInt8]) -> [UInt8] {
        SHA256.hash(KeyLabel.teamLogPayload.bytes + vaultID + payload)
    }

    // MARK: sealing and opening

    /// Seals the payloads under `wrapKey` when they changed (`SealedTeamLogPayloads`).
    mutating func sealPayloadsIfNeeded(wrapKey: WrapKey) throws {
        guard needsSealing, let payloads else { return }
        sealedPayloads = try SealedTeamLogPayloads.seal(payloads, under: wrapKey, vaultID: vaultID, head: head)
        needsSealing = false
    }

    /// Opens the payloads with `wrapKey` (the owner's or a full member's) and checks each against
    /// its entry's digest. Throws `MalformedInput` when they do not open, parse or match.
    mutating func openPayloads(wrapKey: WrapKey) throws {
        if payloads != nil { return }
        let opened = try SealedTeamLogPayloads.open(sealedPayloads, under: wrapKey, vaultID: vaultID, head: head, count: entries.count) {
            index, payload in
            guard constantTimeEquals(payloadDigest(payload), entries[index].payloadDigest) else {
                throw MalformedInput(.violates(.payloadNotItsEntry))
            }
        }
        payloads = opened
    }

    /// The changes, in order (the payloads must be open).
    func changes() throws -> [TeamChange] {
        guard let payloads else { preconditionFailure("the team log's payloads are opened first") }
        return try zip(entries, payloads).map { entry, payload in
            var r = ByteReader(Array(payload.dropFirst(16)))
            let change = try TeamChange.decode(entry.kind, from: &r)
            guard payload.count > 16, r.isAtEnd else { throw MalformedInput(.violates(.malformedTeamLogPayload)) }
            if entry.kind == .envNamesAllowed, try entry.clearChangeDecoded() != change {
                throw MalformedInput(.violates(.payloadNotItsEntry))
            }
            return change
        }
    }

    // MARK: the file's bytes

    /// u32 count ‖ entries ‖ bytes(sealed payloads).
    func encode(into w: inout ByteWriter) {
        w.u32(UInt32(entries.count))
        for entry in entries { entry.encode(into: &w) }
        w.lengthPrefixed(sealedPayloads)
    }

    /// A log as the file holds it, its chain checked: the first entry is the vault's creation with
    /// no parent; every parent is an earlier entry; every entry raises the key epoch above its
    /// parents'; a join names two different heads, lower first. Throws `MalformedInput` otherwise.
    static func decode(from r: inout ByteReader, vaultID: [UInt8]) throws -> TeamLog {
        var log = TeamLog(vaultID: vaultID)
        let count = Int(try r.u32())
        guard (1...maxEntries).contains(count) else { throw MalformedInput(.count(.teamLogEntries, count)) }
        var epochs: [[UInt8]: UInt64] = [:]
        for index in 0..<count {
            guard let kind = Entry.Kind(rawValue: try r.u8()) else { throw MalformedInput(.violates(.unknownTeamLogEntryKind)) }
            let keyEpoch = try r.u64()
            let parentCount = Int(try r.u8())
            guard parentCount == (kind == .joined ? 2 : 1) else { throw MalformedInput(.count(.entryParents, parentCount)) }
            var parents: [[UInt8]] = []
            for _ in 0..<parentCount { parents.append(Array(try r.raw(hashSize))) }
            var entry = Entry(kind: kind, keyEpoch: keyEpoch, parents: parents, payloadDigest: Array(try r.raw(hashSize)))
            if kind == .envNamesAllowed {
                entry.clearChange = Array(try r.raw(Int(try r.u16())))
                _ = try entry.clearChangeDecoded()
            }
            if index == 0 {
                guard kind == .created, parents == [noParent], keyEpoch >= 1 else {
                    throw MalformedInput(.violates(.logNotStartingWithCreation))
                }
            } else {
                guard kind != .created, parents.allSatisfy({ epochs[$0].map { $0 < keyEpoch } ?? false }),
                    kind != .joined || parents[0].lexicographicallyPrecedes(parents[1])
                else {
                    throw MalformedInput(.violates(.entryOutOfChain))
                }
            }
            let hash = entry.hash(vaultID: vaultID)
            guard epochs[hash] == nil else { throw MalformedInput(.violates(.repeatedTeamLogEntry)) }
            epochs[hash] = keyEpoch
            log.entries.append(entry)
            log.hashes.append(hash)
        }
        log.sealedPayloads = Array(try r.lengthPrefixed(limit: count * (4 + TeamChange.maxPayloadBytes) + 28))
        guard log.sealedPayloads.count > 28 else { throw MalformedInput(.violates(.teamLogPayloadsShorterThanSeal)) }
        return log
    }

    /// The log of a vault made now, or converted from a file without one: its creation, holding `roster`.
    static func created(vaultID: [UInt8], keyEpoch: UInt64, roster: [Member]) -> TeamLog {
        var log = TeamLog(vaultID: vaultID)
        log.payloads = []
        log.append(.created(roster: roster), keyEpoch: keyEpoch, parents: [noParent])
        return log
    }
}

extension AAD {
    /// The team log's payloads under WK: "team log" ‖ vault id ‖ the head's hash.
    static func teamLog(vaultID: [UInt8], head: [UInt8]) -> [UInt8] {
        Array("team log".utf8) + vaultID + head
    }
}
