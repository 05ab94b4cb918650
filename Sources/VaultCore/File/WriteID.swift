/// The write id of a vault file (format v3, docs/FORMAT.md): fresh random bytes of every write of
/// the owner or a full member, kept by a scoped writer. Two files at the same counters with
/// different write ids are two writes from one base: siblings, neither newer than the other.
public struct WriteID: Equatable, Sendable {
    /// The id's bytes, as the header holds them.
    package let bytes: [UInt8]

    /// The write id `bytes`; nil when they are none (a v2 file has no write id).
    init?(_ bytes: [UInt8]) {
        guard bytes.count == VaultFile.writeIDSize else { return nil }
        self.bytes = bytes
    }

    /// The write id written as `hex` text; nil when it is not one.
    init?(hex text: some StringProtocol) {
        guard let bytes = unhex(String(text)) else { return nil }
        self.init(bytes)
    }

    /// The id in lowercase hex, as `vault` shows and the seen counters keep it.
    package var hex: String { VaultCore.hex(bytes) }
}
