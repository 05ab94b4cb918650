import VaultCrypto

/// Bitwarden's unencrypted JSON export (`bw export --format json`, or the web vault's "JSON";
/// format at https://bitwarden.com/help/condition-bitwarden-import/): logins (type 1) and secure
/// notes (type 2) become items, the item's name the service, a login's user name the account.
/// A login's password is the secret; without one (a secure note) the note is. The URIs, custom
/// fields ("name: value") and the note beside a password go to the notes, the TOTP to the
/// one-time code, the folder's name to the folder, its creation and revision dates to the item's.
/// Cards and identities are left out, reported.
public enum BitwardenExport {
    /// The entries of an export, and the items left out. Throws `ImportProblem` for a file that is
    /// not such JSON, and `encryptedExport` for an export sealed with a password or account key.
    public static func entries(from document: SecretBytes, origin: ImportOrigin) throws -> ImportBatch {
        let root = try JSONTree.parse(document, origin: origin)
        if case .bool(true)? = root["encrypted"] { throw ImportProblem(origin, .encryptedExport) }
        guard case .array(let items)? = root["items"] else { throw ImportProblem(origin, .malformedJSON(.noItemsArray, at: nil)) }
        var folderNames: [String: String] = [:]
        for folder in root["folders"]?.elements ?? [] {
            if let id = folder["id"]?.text, let name = folder["name"]?.text { folderNames[id] = name }
        }
        var batch = ImportBatch()
        for (number, item) in items.enumerated() {
            let name = item["name"]?.text
            let itemOrigin = ImportOrigin.item(number + 1, name: name)
            guard case .number(let type)? = item["type"], type == "1" || type == "2" else {
                let kind: String
                switch item["type"] {
                case .number("3")?: kind = "card"
                case .number("4")?: kind = "identity"
                case .number(let other)?: kind = "type \(other)"
                default: kind = "untyped"
                }
                batch.skipped.append(ImportProblem(itemOrigin, .unsupportedKind(kind)))
                continue
            }
            guard let name else {
                batch.skipped.append(ImportProblem(itemOrigin, .noName))
                continue
            }
            let login = item["login"]
            var notes = NotesText()
            for uri in login?["uris"]?.elements ?? [] { notes.add("url", uri["uri"]?.bytes) }
            for field in item["fields"]?.elements ?? [] { notes.add(field["name"]?.text ?? "field", field["value"]?.bytes) }
            let note = item["notes"]?.bytes
            var entry = ImportEntry(origin: itemOrigin, folders: item["folderId"]?.text.flatMap { folderNames[$0] }.map { $0.split(separator: "/").map(String.init) } ?? [],
                                    service: name, account: login?["username"]?.text ?? "", secret: SecretBytes(count: 0))
            if let password = login?["password"]?.bytes {
                entry.secret = password
                notes.add(note)
            } else if let note {
                (entry.secret, entry.kind) = (note, .note)
            } else {
                batch.skipped.append(ImportProblem(itemOrigin, .nothingToKeep))
                continue
            }
            entry.fields = SealedFields(notes: notes.finish(), oneTimeCode: login?["totp"]?.bytes)
            (entry.created, entry.modified) = (item["creationDate"]?.text, item["revisionDate"]?.text)
            batch.entries.append(entry)
        }
        return batch
    }
}
