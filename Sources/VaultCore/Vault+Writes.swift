import FoundationEssentials
import VaultCrypto

// The façade's changes: each takes the writer lock, reads, runs its room's operation on the
// working copy and commits (`transaction`, `commit`).
extension Vault {
    /// Merges `theirs` into `ours` (nil: the vault file at this location), against `base` (their
    /// merge base; nil or empty when there is none, as git gives on add/add), and writes the result
    /// here in one write. Needs keys that open both sides whole: the owner's or a full member's.
    /// The team logs decide the members and keys of the result: when one descends from the other,
    /// the descendant's; when they diverged, only the owner joins them (`reviewTeamLog` shown the
    /// other branch's entries first), re-keying in the same write what a removal on either branch
    /// needs (`confirm` shown what that drops). `origins` name each side for the conflicts it leaves.
    /// Nothing of either side is recorded as seen: git may abort the merge and put the older file back.
    public func merge(base: [UInt8]?, ours: [UInt8]? = nil, theirs: [UInt8], origins: (ours: String, theirs: String),
                      kdf: Scrypt.Parameters = .interactive, confirm: (RekeyPlan) throws -> Void) throws -> MergeReport {
        try requireOwner(.mergeVault)
        let outcome = try withWriterLock {
            try withKeys {
                let sides = try openMergeSides(base: base, ours: ours, theirs: theirs, origins: origins)
                let run = MergeRun(origins: origins, kdf: kdf, configuration: configuration, host: host, path: location.path,
                                   readWithExposedDeviceKey: usesExposedDeviceKey, unlockSecret: unlockSecretAtHand)
                var merged = try run.run(ours: sides.ours, theirs: sides.theirs, base: sides.base, confirm: confirm)
                try commit(&merged.result, as: .merge)
                merged.report.keyEpoch = merged.result.file.keyEpoch
                return merged
            }
        }
        if outcome.report.rekeyed { _ = try finishRekey(movedDeviceKey: outcome.movedDeviceKey, masterKey: outcome.result.keys.masterKey) }
        return outcome.report
    }
}
