import FoundationEssentials
import VaultCrypto

/// Every version of a vault file read once with the owner's keys: which key generations each
/// version holds, who held them, and which values each sealed record carries. Each sealed record
/// is decrypted once however many versions carry it, so a record is opened once per key
/// generation, not once per commit (docs/TEAMS.md, "Offboarding").
package struct ExposureHistory: Sendable {
    /// How one version of the file names a value: enough to say which value it is, never its bytes.
    struct Sighting: Sendable {
        let key: ValueKey
        let groupID: GroupID
        let classID: ClassID
        let group: AccessGroup
        let service: String
        let account: String
        let kind: ExposedValueKind
        let revision: Int?
        let trashed: Bool
        let setAt: Date?
        let replacedAt: Date?
        /// When the item holding it was last changed, as this version has it.
        let itemModified: Date

        /// The same value, the record in the trash (or back out of it).
        func moved(toTrash: Bool) -> Sighting {
            Sighting(
                key: key, groupID: groupID, classID: classID, group: group, service: service, account: account, kind: kind,
                revision: revision, trashed: toTrash, setAt: setAt, replacedAt: replacedAt, itemModified: itemModified)
        }
    }

    /// A value of an item: its id, which field, and a digest of its bytes under a key of this run.
    struct ValueKey: Hashable, Sendable {
        let itemID: String
        let field: UInt8
        let digest: [UInt8]
    }

    /// A sealed record by the SHA-256 its file names it by, in the index or in the trash: the key
    /// of `recordIndex` (looked up once per record per version, so fixed-size words, not an array).
    struct SealedRecordKey: Hashable {
        let trashed: Bool
        let digest: (first: Bytes16, second: Bytes16)

        init(trashed: Bool, digest: (Bytes16, Bytes16)) {
            self.trashed = trashed
            self.digest = digest
        }

        init(trashed: Bool, digest: [UInt8]) {
            self.init(trashed: trashed, digest: (Bytes16(digest[0..<16]), Bytes16(digest[16..<32])))
        }

        /// The same record on the other side: moved into the trash, or out of it.
        var moved: SealedRecordKey { SealedRecordKey(trashed: !trashed, digest: digest) }

        static func == (a: SealedRecordKey, b: SealedRecordKey) -> Bool {
            a.trashed == b.trashed && a.digest.first == b.digest.first && a.digest.second == b.digest.second
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(trashed)
            hasher.combine(digest.first)
            hasher.combine(digest.second)
        }
    }

    /// One version as read.
    struct Version: Sendable {
        let commits: [String]
        /// The generation of the wrap key (what a full member's slot carries); nil when not opened.
        let wrapGeneration: Int?
        /// The generation of each base key B[g,c], by group and class (device-bound classes left out:
        /// their records need this machine's device key, which no member or credential holds).
        let baseGenerations: [GroupID: [ClassID: Int]]
        /// The group names, by id.
        let groupNames: [GroupID: String]
        /// Each group's key check, as the header has it: which group key the version is sealed under.
        let keyChecks: [GroupID: [UInt8]]
        /// The members as this version's team log folds them: name, and the group ids of a scoped one (nil: full).
        let members: [String: Set<GroupID>?]
        /// The sealed records this version holds, as indices into `records`.
        let records: [Int]
        /// Its items' item ids (hex), in the index and in the trash; emptied once a newer version
        /// is added (only the current file's are asked, and a thousand versions' would weigh ~100 MiB).
        var itemIDs: Set<Bytes16>
        var trashedItemIDs: Set<Bytes16>
    }

    var versions: [Version] = []
    /// What each sealed record opened to, by position in `recordIndex`.
    var records: [[Sighting]] = []
    var recordIndex: [SealedRecordKey: Int] = [:]
    var versionsNotOpened = 0
    var recordsOpened = 0

    /// The keyed digests of the values that are live: the current file's secrets, notes, one-time
    /// code secrets and conflict versions.
    var liveDigests: Set<[UInt8]> = []
    /// When each item of the current file was last changed, by item id: an acceptance made
    /// before covers the values it holds; any change after it ends the acceptance.
    var currentModified: [String: Date] = [:]

    /// The names of every member some version's log names.
    var memberNames: Set<String> { Set(versions.flatMap(\.members.keys)) }

    /// The members of the current file (the last version read).
    var currentMembers: Set<String> { Set(versions.last?.members.keys.map { $0 } ?? []) }

    /// The item ids of the current file's items named `service` and `account` (in `group`, when given).
    package func currentItemIDs(service: String, account: String, group: AccessGroup?) -> [String] {
        guard let current = versions.last else { return [] }
        let named = current.records.flatMap { records[$0] }.filter {
            !$0.trashed && $0.kind == .current && $0.service == service && $0.account == account && (group == nil || $0.group == group)
        }
        return Set(named.map(\.key.itemID)).sorted()
    }

    /// The key generations `principal` held: base-key generations, and wrap-key generations (a full member's).
    func held(by principal: ExposurePrincipal) -> (bases: Set<Int>, wraps: Set<Int>, found: Bool) {
        var bases = Set<Int>(), wraps = Set<Int>(), found = false
        for version in versions {
            switch principal {
            case .member(let name):
                guard let scope = version.members[name] else { continue }
                found = true
                if let scope {
                    for id in scope { bases.formUnion(version.baseGenerations[id]?.values.map { $0 } ?? []) }
                } else {
                    if let wrap = version.wrapGeneration { wraps.insert(wrap) }
                    for classes in version.baseGenerations.values { bases.formUnion(classes.values) }
                }
            case .group(let group):
                for (id, name) in version.groupNames where name == group.name {
                    found = true
                    bases.formUnion(version.baseGenerations[id]?.values.map { $0 } ?? [])
                }
            case .credential(let grant):
                for (id, check) in grant.keyChecks where version.keyChecks[id] == check {
                    found = true
                    bases.formUnion(version.baseGenerations[id]?.values.map { $0 } ?? [])
                }
            }
        }
        return (bases, wraps, found)
    }

    /// Every value `principal` could open, one per item, field and value, in the order first seen.
    package func values(exposedTo principal: ExposurePrincipal, accepted: [ExposureAcceptance]) -> ExposureReport {
        let (bases, wraps, found) = held(by: principal)
        var rows: [ValueKey: Row] = [:]
        var order: [ValueKey] = []
        for (position, version) in versions.enumerated() {
            let wrapHeld = version.wrapGeneration.map(wraps.contains) ?? false
            for record in version.records {
                for sighting in records[record] {
                    guard let generation = version.baseGenerations[sighting.groupID]?[sighting.classID],
                        wrapHeld || bases.contains(generation)
                    else { continue }
                    if rows[sighting.key] == nil { order.append(sighting.key) }
                    rows[sighting.key, default: Row(first: position)].see(sighting, at: position)
                }
            }
        }
        let current = versions.last
        let (currentIDs, currentTrashedIDs) = (
            Set((current?.itemIDs ?? []).map { hex($0.bytes) }), Set((current?.trashedItemIDs ?? []).map { hex($0.bytes) })
        )
        let acceptances = Dictionary(
            accepted.map { ($0.itemID, $0) }, uniquingKeysWith: { older, newer in newer.acceptedAt > older.acceptedAt ? newer : older })
        let values = order.compactMap { key -> ExposedValue? in
            guard let row = rows[key], let shown = row.shown else { return nil }
            let live = liveDigests.contains(key.digest)
            var value = ExposedValue(
                itemID: key.itemID, group: shown.group, service: shown.service, account: shown.account, kind: shown.kind,
                revision: shown.revision, trashed: shown.trashed,
                deleted: !currentIDs.contains(key.itemID) && !currentTrashedIDs.contains(key.itemID),
                state: live ? .live : .rotated, set: row.setAt, replaced: row.replacedAt,
                firstCommit: versions[row.first].commits.first, lastCommit: versions[row.last].commits.last)
            if live, let acceptance = acceptances[key.itemID], let modified = currentModified[key.itemID], modified <= acceptance.acceptedAt
            {
                value.accepted = acceptance
            }
            return value
        }
        return ExposureReport(
            values: values, principalFound: found, versionsRead: versions.count,
            versionsNotOpened: versionsNotOpened, recordsOpened: recordsOpened)
    }

    /// What one value's sightings add up to.
    struct Row {
        var first: Int
        var last: Int
        var shown: Sighting?
        var setAt: Date?
        var replacedAt: Date?

        init(first: Int) {
            self.first = first
            self.last = first
        }

        /// The newest version's sighting names it; within one version, the secret before a revision before a conflict.
        mutating func see(_ sighting: Sighting, at position: Int) {
            if shown == nil || position > last || Row.rank(sighting) < Row.rank(shown!) && position == last { shown = sighting }
            last = max(last, position)
            if let set = sighting.setAt { setAt = min(setAt ?? set, set) }
            if let replaced = sighting.replacedAt { replacedAt = max(replacedAt ?? replaced, replaced) }
        }

        static func rank(_ sighting: Sighting) -> Int {
            (sighting.trashed ? 10 : 0) + (sighting.kind == .conflict ? 2 : sighting.kind == .revision ? 1 : 0)
        }
    }
}
