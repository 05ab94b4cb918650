/// What is damaged in a vault file or another file vault reads (`VaultError.corrupted`,
/// `damagedCredential`, `damagedBundle`): the facts, never the words, which only the command line
/// writes (`Render/DamageText`). Control flow may look at a case (`isHeaderMACMismatch`).
public enum Damage: Error, Equatable, Sendable {
    /// The header MAC does not check under the keys at hand: damage, or keys that are not the
    /// file's any more (an unlock session from before a re-key).
    case headerMACMismatch
    /// The bytes end at `offset`, where `expected` should follow.
    case truncated(expected: Extent, offset: Int)
    /// A length field of `length`, over its `limit`.
    case lengthOverLimit(Int, limit: Int)
    /// A count or size the layout does not allow (`Tally` says of what).
    case count(Tally, Int)
    /// Bytes follow the end of `part`.
    case trailingBytes(after: Part)
    /// `part` does not open under its key.
    case doesNotOpen(Part)
    /// `part` names a class that does not exist.
    case unknownClass(in: Part)
    /// Not a file of this kind: its magic number, or the text's prefix, is not the kind's.
    case notA(Container)
    /// The kind's version `found`, outside the versions this vault reads.
    case unsupportedVersion(Container, found: Int, reads: ClosedRange<Int>)
    /// A credential's text lacks its prefix (`prefix`).
    case missingPrefix(String)
    /// A rule of the layout that the bytes break.
    case violates(Rule)
    /// A tombstone or purge record of `group` names an item the same file holds in another group:
    /// what a group's block says is about that group's items alone.
    case tombstoneOfAnotherGroup(group: String)
    /// The record of `item` keeps a conflict version of another group or class as its own kind:
    /// such a version is sealed under its own group's keys, never in another group's record.
    case conflictVersionOutsideItsGroup(item: ItemKey)

    /// Whether the header MAC failed (see `headerMACMismatch`).
    package var isHeaderMACMismatch: Bool { self == .headerMACMismatch }

    /// What the bytes should have held where they ended.
    public enum Extent: Equatable, Sendable {
        /// A byte, or a 16-, 32- or 64-bit value.
        case byte, value16, value32, value64
        /// A run of this many bytes.
        case bytes(Int)
        /// A part of the vault file's layout.
        case headerMAC, headerSignature, recordCount, groupSection, listingCount, listingBlock
    }

    /// What a count or size out of range counts.
    public enum Tally: Equatable, Sendable {
        /// Parts of a file, counted.
        case keyslots, groups, memberSlots, listingBlocks, bundleItems
        /// Parts of the team log and its members, counted.
        case teamLogEntries, rosterMembers, memberGroups, entryParents
        /// Sizes of records and their fields, in bytes.
        case recordBytes, bytesAfterLastRecord, revisionFieldBytes, dateFieldBytes
        /// A tombstone block's or a device key's size in bytes; the records an index claims.
        case tombstoneBlockBytes, deviceKeyBytes, indexRecords
        /// Items of a trash block: the count is the most a block holds, exceeded.
        case trashBlockItemsOver
        /// Index buckets: a power of two up to `max`.
        case indexBuckets(max: Int)
        /// A grant ledger block's records, and a record's groups.
        case grantLedgerRecords, grantLedgerGroups
    }

    /// A part of a file that opens, ends, or names a class.
    public enum Part: Equatable, Sendable {
        /// Sealed parts of the vault file.
        case record, listingBlock, wrappedKey, deviceSealedGroupEntry, conflictOtherVersion
        /// Parts of the team log and of member slots.
        case teamLogPayloads, teamLogMember, memberRosterPart, memberRosterEntry, memberSlotKeys
        /// Parts of an export bundle and of a credential.
        case bundleItems, lastBundleItem, lastCredentialGroup
        /// Blocks and entries of a group.
        case trashBlock, tombstoneBlock, indexEntry, trashedRecord, grantLedgerBlock
    }

    /// The kinds of file vault reads, by their magic number or text.
    public enum Container: Equatable, Sendable {
        /// A vault file, an export bundle, a credential (its bytes, or its file), a sealed device key.
        case vaultFile, exportBundle, credential, credentialFile, sealedDeviceKey
    }

    /// The rules a file's bytes can break, one case each.
    public enum Rule: Equatable, Sendable {
        /// The header's checksum, keys and trust statement.
        case headerChecksumMismatch, signingKeyNotTheHeaders, trustKeyNotTheHeaders, trustStatementUnsigned
        /// Signatures that do not check; a file too short, or not a vault file where one is reset.
        case signaturesUnchecked, fileTooShort, notAVaultFileToReset
        /// Keyslots.
        case unknownKeyslotKind, scryptParametersOutOfBounds, masterKeySize, keyslotOpensOnlyItsCheck
        /// Group entries and device grants.
        case groupEntryTooShort, malformedOrRepeatedGroupName, repeatedGroupIDOrBadKeyCheck, deviceGrantOfAnotherGroup
        /// A grant's fields.
        case malformedGroupName, malformedKeyField, unknownOrRepeatedClass
        /// The device key's seals.
        case malformedSealedDeviceKey, malformedTPMRecoverySeal
        /// The index and what it says of records.
        case repeatedItemID, indexEntryUnknownGroupOrClass, uncheckedBucket, lookupTagMismatch, recordDigestMismatch
        /// Listing blocks.
        case listingItemOutOfBlock, listingNotItsGroupsItems, listingBlockOrder, listingBucketCount
        /// Trash and tombstone blocks, one per group.
        case trashBlockGroupCount, tombstoneBlockGroupCount, grantLedgerBlockGroupCount
        /// A record's fields.
        case attributeNotUTF8, recordEndsInField, fieldOverrunsRecord, recordLacksField
        /// The conflicts a record keeps.
        case conflictUnknownSide, conflictUnknownKind, conflictUnknownClassOrGroup
        /// Member slots and their seals.
        case memberSlotsInV1, memberRemovalsShorterThanSeal, memberSlotPartShorterThanSeal, lowOrderEphemeralShare
        /// A member's groups, kind, recipient and scope.
        case memberGroupsEmptyOrRepeated, unknownMemberKind, malformedMemberRecipient, malformedMemberScope
        /// A member's name and flags; two slots of one member.
        case malformedMemberName, flagNotBoolean, repeatedMemberSlot
        /// The team log against the file it is in.
        case noTeamLog, memberSlotsNotTheLogs, keyEpochNotTheLogs
        /// Team log entries that do not fit the members.
        case rosterRepeatsMember, entryAddsMemberTwice, entryRemovesNonMember
        /// Team log payloads and entries.
        case payloadNotItsEntry, malformedTeamLogPayload, unknownTeamLogEntryKind, logNotStartingWithCreation
        /// The team log's chain and seal.
        case entryOutOfChain, repeatedTeamLogEntry, teamLogPayloadsShorterThanSeal
        /// An export bundle's item of a malformed group or class.
        case bundleItemGroupOrClass
        /// A credential's text and fields.
        case notBase64, credentialTooShort, credentialChecksumMismatch, unknownFlags, dateOutOfRange, repeatedGroup
    }
}
