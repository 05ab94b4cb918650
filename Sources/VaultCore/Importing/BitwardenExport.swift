import VaultCrypto

/// Bitwarden's unencrypted JSON export (`bw export --format json`, or the web vault's "JSON";
/// format at https://bitwarden.com/help/condition-bitwarden-import/): logins (type 1) and secure
/// notes (type 2) become items, the item's name the service, a login's user name the account.
/// A login's password is the secret; without one (a secure note) the note is. The URIs, custom
/// fields ("name: value") and the note beside a password go to the notes, the TOTP to the
/// one-time code, the folder's name to the folder, its creation and revision dates to the item's.
/// Cards and identities are left out, reported.
///
/// Read as a stream: the top-level members one at a time, and the `items` array one item at a
/// time, so the import holds one item of the export (and the entries taken), not the whole export.
package enum BitwardenExport {
    /// The entries of the export `stream` holds, and the items left out. Throws `ImportProblem`
    /// for a file that is not such JSON, and `encryptedExport` for an export sealed with a password
    /// or account key.
    package static func entries(reading stream: ExportStream, origin: ImportOrigin) throws -> ImportBatch {
        let reader = try JSONStreamReader(stream, origin: origin)
        var batch = ImportBatch()
        var folderNames: [String: String] = [:]
        // Each entry's folder id, named once the folders are known (they may follow the items).
        var folderIDs: [(entry: Int, id: String)] = []
        // Whether the first `items` member was an array (JSONTree's subscript reads the first of a repeated key).
        var itemsAreAnArray: Bool?
        var encrypted = false
        if try !reader.open(UInt8(ascii: "{"), close: UInt8(ascii: "}")) {
            repeat {
                let key = try reader.key()
                if key == "items", itemsAreAnArray == nil, try reader.peekPastSpace() == UInt8(ascii: "[") {
                    itemsAreAnArray = true
                    var number = 0
                    if try !reader.open(UInt8(ascii: "["), close: UInt8(ascii: "]")) {
                        repeat {
                            number += 1
                            let item = try reader.value(depth: 2)
                            if let folderID = try add(item, number: number, to: &batch) {
                                folderIDs.append((batch.entries.count - 1, folderID))
                            }
                        } while try reader.nextOrClose(UInt8(ascii: "]"))
                    }
                } else {
                    let value = try reader.value(depth: 1)
                    if key == "encrypted", case .bool(true) = value { encrypted = true }
                    if key == "folders" {
                        for folder in value.elements {
                            if let id = folder["id"]?.text, let name = folder["name"]?.text { folderNames[id] = name }
                        }
                    }
                    if key == "items", itemsAreAnArray == nil { itemsAreAnArray = false }
                }
                if encrypted { throw ImportProblem(origin, .encryptedExport) }
            } while try reader.nextOrClose(UInt8(ascii: "}"))
        }
        guard try reader.isAtEnd() else { throw reader.failure(.textAfterEnd) }
        guard itemsAreAnArray == true else {
            throw ImportProblem(origin, .malformedJSON(.noItemsArray, at: nil))
        }
        for (entry, id) in folderIDs {
            batch.entries[entry].folders = folderNames[id].map { $0.split(separator: "/").map(String.init) } ?? []
        }
        return batch
    }

    /// Adds the entry of `item` (the `number`th) to `batch`, or the reason it is left out; returns
    /// its folder id, named later.
    private static func add(_ item: JSONTree, number: Int, to batch: inout ImportBatch) throws -> String? {
        let name = item["name"]?.text
        let itemOrigin = ImportOrigin.item(number, name: name)
        guard case .number(let type)? = item["type"], type == "1" || type == "2" else {
            let kind: String
            switch item["type"] {
            case .number("3")?: kind = "card"
            case .number("4")?: kind = "identity"
            case .number(let other)?: kind = "type \(other)"
            default: kind = "untyped"
            }
            batch.skipped.append(ImportProblem(itemOrigin, .unsupportedKind(kind)))
            return nil
        }
        guard let name else {
            batch.skipped.append(ImportProblem(itemOrigin, .noName))
            return nil
        }
        let login = item["login"]
        var notes = NotesText()
        for uri in login?["uris"]?.elements ?? [] { notes.add("url", uri["uri"]?.bytes) }
        for field in item["fields"]?.elements ?? [] { notes.add(field["name"]?.text ?? "field", field["value"]?.bytes) }
        let note = item["notes"]?.bytes
        var entry = ImportEntry(
            origin: itemOrigin, folders: [], service: name, account: login?["username"]?.text ?? "", secret: SecretBytes(count: 0))
        if let password = login?["password"]?.bytes {
            entry.secret = password
            notes.add(note)
        } else if let note {
            (entry.secret, entry.kind) = (note, .note)
        } else {
            batch.skipped.append(ImportProblem(itemOrigin, .nothingToKeep))
            return nil
        }
        entry.fields = SealedFields(notes: notes.finish(), oneTimeCode: login?["totp"]?.bytes)
        (entry.created, entry.modified) = (item["creationDate"]?.text, item["revisionDate"]?.text)
        batch.entries.append(entry)
        return item["folderId"]?.text
    }
}
