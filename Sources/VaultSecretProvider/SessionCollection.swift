import FoundationEssentials
import VaultCore
import VaultCrypto

/// The `session` collection (alias `session`): items for this login only, never in the vault. They are
/// kept in one record of the login's kernel session keyring (`LoginKeyringRecord`), so they survive the
/// provider's idle exits and go with the login; where the login has no keyring of its own (or the
/// calls are refused) they live in the provider's memory and go with its exit.
final class SessionCollection {
    /// One item: what the client stored, as it stored it.
    struct Item: Codable, Equatable {
        /// The last element of its object path.
        var id: String
        var label: String
        var attributes: [String: String]
        var secret: [UInt8]
        var contentType: String
        var created: UInt64
        var modified: UInt64
    }

    private struct Contents: Codable {
        var next = 1
        var items: [Item] = []
    }

    /// The name of the keyring record.
    static let recordName = "vault:secret-service:session"
    /// What was last written, for when the keyring is not there to hold it.
    private var inMemory = Contents()

    /// The items, newest last.
    var items: [Item] { load().items }

    /// The item whose path element is `id`.
    func item(_ id: String) -> Item? { items.first { $0.id == id } }

    /// Stores a secret; with `replace`, over the item with the same attributes. Returns the item and
    /// whether it is new. Throws `tooLarge` when the record would outgrow a keyring key.
    func store(
        label: String, attributes: [String: String], secret: [UInt8], contentType: String, replace: Bool,
        now: UInt64
    ) throws -> (item: Item, isNew: Bool) {
        var contents = load()
        if replace, let index = contents.items.firstIndex(where: { $0.attributes == attributes }) {
            contents.items[index].label = label
            contents.items[index].secret = secret
            contents.items[index].contentType = contentType
            contents.items[index].modified = now
            try save(contents)
            return (contents.items[index], false)
        }
        let item = Item(
            id: "s" + String(contents.next), label: label, attributes: attributes, secret: secret,
            contentType: contentType, created: now, modified: now)
        contents.next += 1
        contents.items.append(item)
        try save(contents)
        return (item, true)
    }

    /// Changes the item `id` with `change`; false when there is no such item.
    @discardableResult
    func update(_ id: String, now: UInt64, _ change: (inout Item) -> Void) throws -> Bool {
        var contents = load()
        guard let index = contents.items.firstIndex(where: { $0.id == id }) else { return false }
        change(&contents.items[index])
        contents.items[index].modified = now
        try save(contents)
        return true
    }

    /// Removes the item `id`.
    func delete(_ id: String) throws {
        var contents = load()
        contents.items.removeAll { $0.id == id }
        try save(contents)
    }

    /// The record too large for a keyring key.
    struct TooLarge: Error {}

    private func load() -> Contents {
        guard let bytes = try? LoginKeyringRecord.read(SessionCollection.recordName) else { return inMemory }
        return (try? JSONDecoder().decode(Contents.self, from: Data(bytes))) ?? inMemory
    }

    private func save(_ contents: Contents) throws {
        let bytes = Array(try JSONEncoder().encode(contents))
        guard bytes.count <= LoginKeyringRecord.capacity else { throw TooLarge() }
        inMemory = contents
        try? LoginKeyringRecord.write(SessionCollection.recordName, bytes)
    }
}
