import VaultCore
import VaultCrypto
import VaultOpenBao

/// `vault import --from openbao MOUNT[/PREFIX]`: every KV v2 secret under the prefix (its latest
/// version), listed folder by folder; each field of a secret is an item, its service the secret's
/// path under the mount and its account the field's name (docs/IMPORT.md). A prefix that is a
/// secret itself (no folder of that name) imports that one secret.
struct OpenBaoImport {
    let mount: String
    let prefix: String

    /// Splits `MOUNT[/PREFIX]`; a usage error for an empty one, or one with an empty, `.` or `..` part.
    init(_ source: String?) throws {
        guard let source, !source.isEmpty else {
            throw UsageError("no mount named", hint: "give the KV v2 mount and a prefix: vault import --from openbao secret/ci")
        }
        let parts = source.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let trimmed = parts.last == "" ? Array(parts.dropLast()) : parts
        guard !trimmed.isEmpty, trimmed.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else {
            throw UsageError(
                "\(quoted(ItemOutput.printable(source))) is not MOUNT/PREFIX",
                hint: "write the mount, then the folder to take, e.g. secret/ci (no empty, . or .. part)")
        }
        mount = trimmed[0]
        prefix = trimmed.dropFirst().joined(separator: "/")
    }

    /// The entries of every secret under the prefix; more than `maxEntries` secrets refuse the import before any is read.
    func read(_ invocation: Invocation, maxEntries: Int) throws -> ImportBatch {
        let client = try OpenBaoAccess(invocation).client()
        var paths: [String] = []
        var folders = [prefix]
        while let folder = folders.popLast() {
            let base = folder.isEmpty ? "" : folder + "/"
            for key in try client.list(mount: mount, prefix: folder) {
                if key.hasSuffix("/") { folders.append(base + key.dropLast()) } else { paths.append(base + key) }
            }
            if paths.count > maxEntries { throw ImportCommand.tooManyEntries(paths.count, limit: maxEntries) }
        }
        // No folder of that name: the prefix may name one secret (its 404 then says there is none).
        let listed = !paths.isEmpty
        if !listed {
            guard !prefix.isEmpty else { throw OpenBaoError.noSuchPath(path: mount + "/", version: nil) }
            paths = [prefix]
        }
        var batch = ImportBatch()
        for path in paths.sorted() {
            let fields: [String: SecretBytes]
            do {
                fields = try client.readSecret(mount: mount, path: path, version: nil)
            } catch OpenBaoError.noSuchPath where listed {
                // Listed, but its latest version is deleted: nothing to take.
                batch.skipped.append(ImportProblem(.named("\(mount)/\(path)"), .nothingToKeep))
                continue
            } catch OpenBaoError.fieldNotText(_, let field) {
                batch.bad.append(ImportProblem(.named("\(mount)/\(path)#\(field)"), .notText))
                continue
            }
            for name in fields.keys.sorted() {
                batch.entries.append(
                    ImportEntry(
                        origin: .named("\(mount)/\(path)#\(name)"), folders: [], service: path, account: name,
                        secret: fields[name]!))
            }
        }
        return batch
    }
}
