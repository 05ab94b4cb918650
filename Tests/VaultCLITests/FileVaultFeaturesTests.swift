import Foundation
import Testing

/// The command line asks a store for what only the vault file offers through `ItemStore.fileVault`,
/// and refuses in its own words where that is nil: a cast of a store to `Vault` would pass over
/// another backend silently, or (as a protocol default) pretend it had an empty trash or history.
@Suite struct FileVaultFeaturesTests {
    @Test func noSourceOfTheCommandLineCastsToTheVaultFile() throws {
        let root = Sandbox.packageRoot + "/Sources/VaultCLI"
        let cast = try Regex(#"\b(as[?!]|is)\s+Vault\b"#)
        let files = try #require(FileManager.default.enumerator(atPath: root)).compactMap { $0 as? String }
        #expect(files.contains { $0.hasSuffix(".swift") })
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            #expect(!text.contains(cast), "\(file) casts to Vault; ask the store's fileVault instead")
        }
    }
}
