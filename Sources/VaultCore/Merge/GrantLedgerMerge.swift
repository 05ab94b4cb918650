// The grant ledger's merge rule (docs/FORMAT.md, "Grant ledger"): a merge keeps both sides'
// records, and a revocation either side holds wins.
extension GrantRecord {
    /// Every record of `lists`, one per grant id, each with the earliest revocation any list holds
    /// for it; oldest grant first (then by id), the order a block keeps them in.
    static func merged(_ lists: [[GrantRecord]]) -> [GrantRecord] {
        var byID: [[UInt8]: GrantRecord] = [:]
        for record in lists.joined() {
            byID[record.id] = byID[record.id].map { $0.revokedEarliest(record) } ?? record
        }
        return byID.values.sorted { $0.issued != $1.issued ? $0.issued < $1.issued : $0.id.lexicographicallyPrecedes($1.id) }
    }
}
