import Testing
import CLibSecret
@testable import VaultSecretService

/// libsecret's errors as vault classifies them, provoked on purpose in the test keyring.
extension SecretServiceTests {
    /// An item the keyring lists and another client deletes before libsecret loads it fails the
    /// load with `noObjectAtPath`, told by the GError's domain and code: the error that
    /// `KeyringConnection.loadCollections` tries again. A collection proxy keeps the item list it
    /// was opened with, so loading its items after the delete asks for the deleted item's path,
    /// as `secret_service_load_collections_sync` does when the delete falls between the two.
    @Test(KeyringDaemon.trait) func anItemDeletedBeforeItLoadsIsNoObjectAtPath() throws {
        guard KeyringDaemon.isAvailable() else { return }
        let sandbox = try KeyringDaemon.sandbox()
        let serviceName = KeyringDaemon.uniqueService("deleted-meanwhile")
        #expect(try sandbox.vault(["add", "-s", serviceName, "-a", "gone"], stdin: Array("x".utf8)).status == 0)

        let library = try LibSecret.load(environment: [:])
        let api = library.api
        let service = try #require(
            try library.call(.connect) {
                api.secret_service_get_sync(UInt32(VAULT_SECRET_SERVICE_OPEN_SESSION), nil, $0)
            })
        defer { api.g_object_unref(UnsafeMutableRawPointer(service)) }
        let byAlias = try #require(
            try library.call(.findCollection("default")) {
                api.secret_collection_for_alias_sync(service, "default", 0, nil, $0)
            })
        defer { api.g_object_unref(UnsafeMutableRawPointer(byAlias)) }
        let path = String(cString: try #require(api.g_dbus_proxy_get_object_path(byAlias)))
        let collection = try #require(
            try library.call(.openCollection(path)) {
                api.secret_collection_new_for_dbus_path_sync(service, path, 0, nil, $0)
            })
        defer { api.g_object_unref(UnsafeMutableRawPointer(collection)) }

        #expect(try sandbox.vault(["delete", "-s", serviceName, "-a", "gone"]).status == 0)
        do {
            _ = try library.call(.loadCollection) { api.secret_collection_load_items_sync(collection, nil, $0) }
            Issue.record("loading a collection's items after one of them was deleted succeeded")
        } catch SecretServiceError.failed(.loadCollection, .reported(let kind, let message)) {
            #expect(kind == .noObjectAtPath, "\(message)")
            #expect(message.hasPrefix("No such secret item at path: \(path)/"), "the error loadCollections retries: \(message)")
        }
    }
}
