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

    /// Whether the header MAC failed (see `headerMACMismatch`).
    public var isHeaderMACMismatch: Bool { self == .headerMACMismatch }

    /// What the bytes should have held where they ended.
    public enum Extent: Equatable, Sendable {
        case byte, value16, value32, value64
        /// A run of this many bytes.
        case bytes(Int)
        case headerMAC, headerSignature, recordCount, groupSection, listingCount, listingBlock
    }

    /// What a count or size out of range counts.
    public enum Tally: Equatable, Sendable {
        case keyslots, groups, memberSlots, listingBlocks, bundleItems
        case teamLogEntries, rosterMembers, memberGroups, entryParents
        case recordBytes, bytesAfterLastRecord, revisionFieldBytes, dateFieldBytes
        case tombstoneBlockBytes, deviceKeyBytes, indexRecords
        /// Items of a trash block: the count is the most a block holds, exceeded.
        case trashBlockItemsOver
        /// Index buckets: a power of two up to `max`.
        case indexBuckets(max: Int)
    }

    /// A part of a file that opens, ends, or names a class.
    public enum Part: Equatable, Sendable {
        case record, listingBlock, wrappedKey, deviceSealedGroupEntry, conflictOtherVersion
        case teamLogPayloads, teamLogMember, memberRosterPart, memberRosterEntry, memberSlotKeys
        case bundleItems, lastBundleItem, lastCredentialGroup
        case trashBlock, tombstoneBlock, indexEntry, trashedRecord
    }

    /// The kinds of file vault reads, by their magic number or text.
    public enum Container: Equatable, Sendable {
        case vaultFile, exportBundle, credential, credentialFile, sealedDeviceKey
    }

    /// The rules a file's bytes can break, one case each.
    public enum Rule: Equatable, Sendable {
        // the header and its keys
        case headerChecksumMismatch, signingKeyNotTheHeaders, trustKeyNotTheHeaders, trustStatementUnsigned
        case signaturesUnchecked, fileTooShort, notAVaultFileToReset
        // keyslots
        case unknownKeyslotKind, scryptParametersOutOfBounds, masterKeySize, keyslotOpensOnlyItsCheck
        // groups, grants and the device key
        case groupEntryTooShort, malformedOrRepeatedGroupName, repeatedGroupIDOrBadKeyCheck, deviceGrantOfAnotherGroup
        case malformedGroupName, malformedKeyField, unknownOrRepeatedClass
        case malformedSealedDeviceKey, malformedTPMRecoverySeal
        // the index, listings and records
        case repeatedItemID, indexEntryUnknownGroupOrClass, uncheckedBucket, lookupTagMismatch, recordDigestMismatch
        case listingItemOutOfBlock, listingNotItsGroupsItems, listingBlockOrder, listingBucketCount
        case trashBlockGroupCount, tombstoneBlockGroupCount
        case attributeNotUTF8, recordEndsInField, fieldOverrunsRecord, recordLacksField
        case conflictUnknownSide, conflictUnknownKind, conflictUnknownClassOrGroup
        // members and the team log
        case memberSlotsInV1, memberRemovalsShorterThanSeal, memberSlotPartShorterThanSeal, lowOrderEphemeralShare
        case memberGroupsEmptyOrRepeated, unknownMemberKind, malformedMemberRecipient, malformedMemberScope
        case malformedMemberName, flagNotBoolean, repeatedMemberSlot
        case noTeamLog, memberSlotsNotTheLogs, keyEpochNotTheLogs
        case rosterRepeatsMember, entryAddsMemberTwice, entryRemovesNonMember
        case payloadNotItsEntry, malformedTeamLogPayload, unknownTeamLogEntryKind, logNotStartingWithCreation
        case entryOutOfChain, repeatedTeamLogEntry, teamLogPayloadsShorterThanSeal
        // export bundles and credentials
        case bundleItemGroupOrClass
        case notBase64, credentialTooShort, credentialChecksumMismatch, unknownFlags, dateOutOfRange, repeatedGroup
    }
}
