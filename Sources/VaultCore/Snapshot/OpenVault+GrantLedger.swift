import VaultCrypto

// The grant ledger: one sealed block per group among the listing blocks (class id 254), under a key
// derived from the group key, covered by the group's MACs as every block of the group is
// (docs/FORMAT.md, "Grant ledger").
extension OpenVault {
    /// The grants `groupID`'s ledger block records (none without a block). Throws `locked`
    /// without the group key (a credential, a scoped member), `corrupted` for a block that does not open.
    func grantLedger(of groupID: GroupID) throws -> [GrantRecord] {
        try openGroupBlock(
            groupID, classID: GrantRecord.blockClassID, key: keys.grantLedgerKey(groupID:),
            open: SealedGroupBlock.openGrantLedger, damage: .doesNotOpen(.grantLedgerBlock)) ?? []
    }

    /// Every grant of the file, one per id, from the ledger blocks of the groups whose keys are at hand:
    /// a grant of several groups is in each one's block, and a re-key of any of them ended it.
    func grantLedger() throws -> [GrantRecord] {
        try GrantRecord.merged(file.groups.filter { keys.groups[$0.groupID]?.groupKey != nil }.map { try grantLedger(of: $0.groupID) })
    }
}
