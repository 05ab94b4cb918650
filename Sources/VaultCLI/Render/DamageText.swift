import VaultCore

/// The words for what is damaged, shown after a file's name ("… is damaged or was tampered
/// with: WORDS") and by `verify`. VaultCore names the damage; only this file words it.
extension Damage: CustomStringConvertible {
    public var description: String {
        switch self {
        case .headerMACMismatch: return "the header MAC does not match"
        case .truncated(let expected, let offset): return "the file ends where \(DamageText.words(expected)) expected at offset \(offset)"
        case .lengthOverLimit(let length, let limit): return "a length of \(length) exceeds \(limit)"
        case .count(let tally, let count): return DamageText.words(tally, count)
        case .trailingBytes(let part): return "bytes follow \(DamageText.noun(part))"
        case .doesNotOpen(let part): return "\(DamageText.noun(part)) \(DamageText.isPlural(part) ? "do" : "does") not open"
        case .unknownClass(let part): return "\(DamageText.noun(part)) names an unknown class"
        case .notA(let container): return DamageText.notA(container)
        case .unsupportedVersion(let container, let found, let reads):
            return "\(DamageText.versioned(container)) version \(found) is not supported (this vault reads \(DamageText.versions(reads)))"
        case .missingPrefix(let prefix): return "it does not start with \(prefix)"
        case .violates(let rule): return DamageText.words(rule)
        case .tombstoneOfAnotherGroup(let group): return "a tombstone of group \(quoted(group)) names an item of another group"
        case .conflictVersionOutsideItsGroup(let item):
            return "the conflict of service \(quoted(item.service)), account \(quoted(item.account)) in group \(quoted(item.group.name))"
                + " keeps a version of another group or class unsealed"
        }
    }
}

enum DamageText {
    /// What was expected, with its verb ("a byte was", "12 bytes were").
    static func words(_ extent: Damage.Extent) -> String {
        switch extent {
        case .byte: return "a byte was"
        case .value16: return "a 16-bit value was"
        case .value32: return "a 32-bit value was"
        case .value64: return "a 64-bit value was"
        case .bytes(let count): return "\(count) bytes were"
        case .headerMAC: return "the header MAC was"
        case .headerSignature: return "the header signature was"
        case .recordCount: return "the record count was"
        case .groupSection: return "a group section was"
        case .listingCount: return "the listing count was"
        case .listingBlock: return "a listing block was"
        }
    }

    static func words(_ tally: Damage.Tally, _ count: Int) -> String {
        switch tally {
        case .keyslots: return "\(count) keyslots"
        case .groups: return "\(count) groups"
        case .memberSlots: return "\(count) member slots"
        case .listingBlocks: return "\(count) listing blocks"
        case .bundleItems: return "\(count) items"
        case .teamLogEntries: return "a team log of \(count) entries"
        case .rosterMembers: return "a team log roster of \(count) members"
        case .memberGroups: return "a member of \(count) groups"
        case .entryParents: return "a team log entry with \(count) parents"
        case .recordBytes: return "a record of \(count) bytes"
        case .bytesAfterLastRecord: return "\(count) bytes follow the last record"
        case .revisionFieldBytes: return "a revision field of \(count) bytes"
        case .dateFieldBytes: return "a date field of \(count) bytes"
        case .tombstoneBlockBytes: return "a tombstone block of \(count) bytes"
        case .deviceKeyBytes: return "a device key of \(count) bytes"
        case .indexRecords: return "an index of \(count) records does not fit the file"
        case .trashBlockItemsOver: return "a trash block of more than \(count) items"
        case .grantLedgerRecords: return "a grant ledger block of \(count) records"
        case .grantLedgerGroups: return "a grant of \(count) groups"
        case .indexBuckets(let max): return "an index of \(count) buckets (not a power of two up to \(max))"
        }
    }

    static func noun(_ part: Damage.Part) -> String {
        switch part {
        case .record: return "a record"
        case .listingBlock: return "a listing block"
        case .wrappedKey: return "a wrapped key"
        case .deviceSealedGroupEntry: return "a device-sealed group entry"
        case .conflictOtherVersion: return "a conflict's other version"
        case .teamLogPayloads: return "the team log's payloads"
        case .teamLogMember: return "a member in the team log"
        case .memberRosterPart: return "a member slot's roster part"
        case .memberRosterEntry: return "a member's roster entry"
        case .memberSlotKeys: return "a member slot's keys"
        case .bundleItems: return "its sealed items"
        case .lastBundleItem: return "the last item"
        case .lastCredentialGroup: return "the last group"
        case .trashBlock: return "a trash block"
        case .tombstoneBlock: return "a tombstone block"
        case .grantLedgerBlock: return "a grant ledger block"
        case .indexEntry: return "an index entry"
        case .trashedRecord: return "a trashed record"
        }
    }

    static func isPlural(_ part: Damage.Part) -> Bool {
        part == .teamLogPayloads || part == .bundleItems
    }

    static func notA(_ container: Damage.Container) -> String {
        switch container {
        case .vaultFile: return "not a vault file (bad magic number)"
        case .exportBundle: return "not a vault export bundle"
        case .credential: return "not a vault credential"
        case .credentialFile: return "it is not a credential file"
        case .sealedDeviceKey: return "no sealed device key"
        }
    }

    static func versioned(_ container: Damage.Container) -> String {
        switch container {
        case .vaultFile: return "format"
        case .exportBundle: return "bundle"
        case .credential, .credentialFile: return "credential"
        case .sealedDeviceKey: return "sealed device key"
        }
    }

    /// "version 1", "versions 1 and 2", "versions 1 to 3".
    static func versions(_ range: ClosedRange<Int>) -> String {
        switch range.count {
        case 1: return "version \(range.lowerBound)"
        case 2: return "versions \(range.lowerBound) and \(range.upperBound)"
        default: return "versions \(range.lowerBound) to \(range.upperBound)"
        }
    }
}
