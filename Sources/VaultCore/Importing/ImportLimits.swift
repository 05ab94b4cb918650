/// The bounds of one `vault import --from` (docs/IMPORT.md, "Bounds"): an export larger than
/// `maxExportBytes` is not read, and one with more entries than the entry cap (`defaultMaxEntries`
/// unless raised) imports nothing, so a hostile or mistaken export cannot take a machine's memory
/// or make a vault the size of its whole history by accident.
package enum ImportLimits {
    /// The most entries one import takes unless the caller raises it: 100 000.
    package static let defaultMaxEntries = 100_000
    /// The largest export read, from a file, stdin or a program (gpg, keepassxc-cli): 256 MiB.
    package static let maxExportBytes = 256 << 20
}
