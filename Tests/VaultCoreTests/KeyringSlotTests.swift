import Foundation
import Testing
@testable import VaultCore
import VaultCrypto

/// The desktop-keyring keyslot (kind 3): a random key that opens the vault
/// like a key file, found in the header without any key.
@Suite struct KeyringSlotTests {
    @Test func keyringKeyOpensTheVaultUntilItsSlotIsRemoved() throws {
        let directory = try TempDirectory()
        let location = directory.location()
        let vault = try Vault.makeTest(at: location)
        try vault.add("db", "admin", "hunter2")
        #expect(!Vault.hasKeyringSlot(at: location))

        let key = SecretBytes(Array("vault-keyring-v1:random-key-material-0123456789".utf8))
        try vault.addKeyringSlot(key)
        #expect(Vault.hasKeyringSlot(at: location))
        #expect(throws: VaultError.invalidValue(.keyringSlotExists)) {
            try vault.addKeyringSlot(key)
        }

        let viaKeyring = Vault(location: location, credential: .desktopKeyring(key))
        #expect(try viaKeyring.secret("db", "admin") == "hunter2")
        #expect(try viaKeyring.status(sessionToken: nil).keyslots == [.keyFile, .desktopKeyring])

        let wrong = Vault(location: location, credential: .desktopKeyring(SecretBytes(Array("another-key-of-thirty-two-bytes!!".utf8))))
        #expect(throws: VaultError.wrongCredential(.desktopKeyring)) { try wrong.attributes(matching: Query()) }

        try vault.removeKeyringSlot()
        #expect(!Vault.hasKeyringSlot(at: location))
        #expect(throws: VaultError.noKeyslot(.desktopKeyring)) { try viaKeyring.attributes(matching: Query()) }
        #expect(throws: VaultError.noKeyslot(.desktopKeyring)) { try vault.removeKeyringSlot() }
        #expect(try vault.secret("db", "admin") == "hunter2")
    }

    @Test func identifierIsTheVaultIDInHex() throws {
        let directory = try TempDirectory()
        let location = directory.location()
        _ = try Vault.makeTest(at: location)
        let id = try Vault.identifier(at: location)
        #expect(id.count == 32 && id.allSatisfy(\.isHexDigit))
    }
}
