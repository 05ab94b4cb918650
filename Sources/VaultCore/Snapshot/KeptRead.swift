/// The snapshot a write's first read made (`add` checks the group first) and the bytes it was read
/// from, kept for the reads and the write that follow while the file is unchanged: `add` checks the
/// group and its twins, takes the writer lock and writes, from one open of the file and one
/// verification of it (`Vault.readSnapshot(keepingForWrite:)`). The write takes it; other keys do not see it.
struct KeptRead {
    let bytes: FileBytes
    let snapshot: Snapshot
    let indexCheck: IndexCheck
    /// The keys it was read with, as the walk counts them (`UnlockWalk.choice`).
    let choice: Int

    /// Whether this read, with the keys of `choice`, checked what a read checking `requested` must.
    func serves(_ requested: IndexCheck, choice: Int) -> Bool {
        self.choice == choice && (indexCheck == .everyBucket || requested == .lookupsOnly)
    }

    /// Whether `path` still names the file read (vault replaces a vault file, never writes it in place).
    func isCurrent(at path: String) -> Bool {
        bytes.identity != nil && FileIdentity(path: path) == bytes.identity
    }
}
