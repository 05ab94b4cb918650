import FoundationEssentials
import VaultCrypto

// Reading one version into an exposure history: its key generations, its members, its records.
extension ExposureHistory {
    /// The key of one run that digests values and keys: random, never stored, never shown.
    struct Digester {
        let key: SecretBytes
        var generations: [[UInt8]: Int] = [:]

        init() {
            let key = SecretBytes(count: 32)
            key.withUnsafeMutableBytes { $0.copyBytes(from: SecureRandom.bytes(32)) }
            self.key = key
        }

        func digest(_ tag: UInt8, _ secret: SecretBytes) -> [UInt8] {
            secret.withUnsafeBytes { bytes in
                var data = [tag]
                data.append(contentsOf: bytes)
                defer { data.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) } }
                return HMAC.sha256(key: key, data: data)
            }
        }

        /// The generation number of a key, the same for the same key in every version.
        mutating func generation(_ tag: UInt8, _ secret: SecretBytes) -> Int {
            let digest = digest(tag, secret)
            if let known = generations[digest] { return known }
            generations[digest] = generations.count
            return generations.count - 1
        }
    }

    /// Adds `vault`, the next version (oldest first; the current file last), written by `commits`.
    mutating func add(_ vault: Snapshot, commits: [String], digester: inout Digester) {
        var bases: [GroupID: [ClassID: Int]] = [:]
        var names: [GroupID: String] = [:]
        for entry in vault.file.groups {
            guard let group = vault.keys.groups[entry.groupID]?.group else { continue }
            names[entry.groupID] = group.name
            for accessibility in Accessibility.allCases where !accessibility.isDeviceBound {
                guard let key = try? vault.keys.baseKey(groupID: entry.groupID, classID: accessibility.fileID) else { continue }
                bases[entry.groupID, default: [:]][accessibility.fileID] = digester.generation(0x62, key.secret)
            }
        }
        var members: [String: Set<GroupID>?] = [:]
        for member in (try? vault.readMembers()) ?? [] {
            switch member.scope {
            case .full: members[member.name] = .some(nil)
            case .groups(let ids, _): members[member.name] = .some(Set(ids))
            }
        }
        var held: [Int] = [], itemIDs = Set<Bytes16>(), trashedIDs = Set<Bytes16>()
        for position in vault.file.index.indices {
            let entry = vault.file.index[position]
            itemIDs.insert(entry.itemID)
            held.append(
                record(
                    SealedRecordKey(trashed: false, digest: entry.digest),
                    Place(itemID: hex(entry.itemID.bytes), groupID: entry.groupID, classID: entry.classID, trashed: false),
                    in: vault, digester: digester
                ) { try vault.openWholeRecord(at: position) })
        }
        for group in vault.file.groups where vault.trashBlock(of: group.groupID) != nil {
            for entry in (try? vault.trash(of: group.groupID)) ?? [] {
                trashedIDs.insert(entry.itemID)
                held.append(
                    record(
                        SealedRecordKey(trashed: true, digest: entry.digest),
                        Place(itemID: hex(entry.itemID.bytes), groupID: group.groupID, classID: entry.classID, trashed: true),
                        in: vault, digester: digester
                    ) { try vault.openTrashed(entry, of: group.groupID).record })
            }
        }
        if let newest = versions.indices.last {
            versions[newest].itemIDs = []
            versions[newest].trashedItemIDs = []
        }
        versions.append(
            Version(
                commits: commits, wrapGeneration: vault.keys.wrapKey.map { digester.generation(0x77, $0.secret) },
                baseGenerations: bases, groupNames: names,
                keyChecks: Dictionary(vault.file.groups.map { ($0.groupID, $0.keyCheck) }, uniquingKeysWith: { first, _ in first }),
                members: members, records: held,
                itemIDs: itemIDs, trashedItemIDs: trashedIDs))
    }

    /// Marks the values of the last version added as the live ones.
    mutating func takeLiveValues() {
        guard let current = versions.last else { return }
        let live = current.records.flatMap { records[$0] }.filter { !$0.trashed && $0.kind != .revision }
        liveDigests = Set(live.map(\.key.digest))
        currentModified = Dictionary(live.map { ($0.key.itemID, $0.itemModified) }, uniquingKeysWith: max)
    }

    /// The position of the sealed record `key` names, opened now when no version opened it before
    /// (`place`, made only then, says where it sits in `vault`).
    private mutating func record(
        _ key: SealedRecordKey, _ place: @autoclosure () -> Place, in vault: Snapshot, digester: Digester,
        open: () throws -> OpenedRecord
    ) -> Int {
        if let known = recordIndex[key] { return known }
        var sightings: [Sighting] = []
        // A deletion moves the sealed record into the trash byte for byte: the same bytes, another place.
        if let elsewhere = recordIndex[key.moved] {
            sightings = records[elsewhere].map { $0.moved(toTrash: key.trashed) }
        } else if let opened = try? open() {
            recordsOpened += 1
            sightings = Self.sightings(of: opened, at: place(), digester: digester) { vault.keys.groupID(of: $0) }
        }
        records.append(sightings)
        recordIndex[key] = records.count - 1
        return records.count - 1
    }

    /// Where a sealed record sits in a version: its item, the (group, class) it is sealed under, the trash or the index.
    struct Place {
        let itemID: String
        let groupID: GroupID
        let classID: ClassID
        let trashed: Bool
    }

    /// The values one opened record carries; a conflict's other version of another group or class
    /// is sealed under that pair's keys (`groupID` finds its group's id).
    static func sightings(
        of opened: OpenedRecord, at place: Place, digester: Digester,
        groupID: (AccessGroup) -> GroupID?
    ) -> [Sighting] {
        let item = opened.item
        var found: [Sighting] = []
        func add(
            _ item: Item, kind: ExposedValueKind, revision: Int? = nil, secret: SecretBytes, field: UInt8,
            setAt: Date?, replacedAt: Date?
        ) {
            let attributes = item.attributes
            let elsewhere =
                attributes.group != opened.item.attributes.group || attributes.accessibility != opened.item.attributes.accessibility
            guard let sealedIn = elsewhere ? groupID(attributes.group) : place.groupID else { return }
            found.append(
                Sighting(
                    key: ValueKey(itemID: place.itemID, field: field, digest: digester.digest(0x76, secret)),
                    groupID: sealedIn, classID: elsewhere ? attributes.accessibility.fileID : place.classID,
                    group: attributes.group, service: attributes.service, account: attributes.account, kind: kind,
                    revision: revision, trashed: place.trashed, setAt: setAt, replacedAt: replacedAt,
                    itemModified: opened.item.attributes.modified))
        }
        func addFields(of version: Item, secretKind: ExposedValueKind) {
            add(
                version, kind: secretKind, secret: version.secret, field: 0,
                setAt: secretKind == .current ? version.attributes.modified : nil, replacedAt: nil)
            for present in version.fields.present {
                add(
                    version, kind: present.field == .notes ? .notes : .otp, secret: present.value, field: present.field == .notes ? 1 : 2,
                    setAt: nil, replacedAt: nil)
            }
        }
        addFields(of: item, secretKind: .current)
        for (number, revision) in opened.history.enumerated() {
            add(
                item, kind: .revision, revision: number + 1, secret: revision.secret, field: 0, setAt: revision.setAt,
                replacedAt: revision.replacedAt)
        }
        for conflict in opened.conflicts {
            if let other = conflict.other { addFields(of: other, secretKind: .conflict) }
        }
        return found
    }
}
