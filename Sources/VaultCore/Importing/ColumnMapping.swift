import VaultCrypto

/// Which CSV column gives which part of an item: `csv --columns`, and the fixed mappings of the
/// CSV files KeePassXC and 1Password write (docs/IMPORT.md). Columns are named by their header,
/// compared without regard to case.
package struct ColumnMapping: Sendable {
    /// A part of an item a column can give.
    package enum Role: String, CaseIterable, Sendable {
        /// The service (required): a title, a name.
        case service
        /// The account: a user name.
        case account
        /// The secret (required in the mapping; a row without one keeps its note as the secret).
        case secret
        /// Free text for the notes; a second notes column is kept as "Header: value".
        case notes
        /// A URL, kept in the notes as "url: …".
        case url
        /// A one-time code secret (otpauth:// URI or Base32 seed).
        case otp
        /// The folder path, parts separated by "/".
        case folder
        /// Tags, kept in the notes as "tags: …".
        case tags
        /// An archived flag: "true" keeps "archived: true" in the notes.
        case archived
    }

    private var columns: [(role: Role, header: String)]
    /// The first folder of every path is the database's root (KeePassXC writes "Root/…"): left out.
    private var folderHasRoot = false
    /// Roles whose column may be missing (an older export without it): passed over then.
    private var mayBeMissing: Set<Role> = []

    /// A mapping as `--columns` writes it: ROLE=COLUMN pairs separated by commas, e.g.
    /// `service=Title,account=Username,secret=Password,notes=Notes`. Service and secret are
    /// required; notes and url may repeat. Throws `ImportProblem` (`badMapping`) otherwise.
    package init(parsing text: String) throws {
        columns = []
        for pair in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let role = Role(rawValue: String(parts[0]).lowercased()), !parts[1].isEmpty else {
                throw ImportProblem(.columnMapping, .badMapping(String(pair)))
            }
            if role != .notes, role != .url, columns.contains(where: { $0.role == role }) {
                throw ImportProblem(.columnMapping, .badMapping(String(pair)))
            }
            columns.append((role, String(parts[1])))
        }
        for required in [Role.service, .secret] where !columns.contains(where: { $0.role == required }) {
            throw ImportProblem(.columnMapping, .badMapping("\(required.rawValue)=…"))
        }
    }

    /// What KeePassXC writes (its export and `keepassxc-cli export --format csv`): Group, Title,
    /// Username, Password, URL, Notes, TOTP, …; the group path starts with the root group.
    package static let keePassXC: ColumnMapping = {
        var mapping = try! ColumnMapping(
            parsing: "folder=Group,service=Title,account=Username,secret=Password,url=URL,notes=Notes,otp=TOTP")
        mapping.folderHasRoot = true
        return mapping
    }()

    /// What 1Password 8 writes: Title, Url, Username, Password, OTPAuth, Favorite, Archived, Tags, Notes.
    /// Tags and the archived flag go to the notes (an export without those columns reads too);
    /// Favorite is left out (the import says so).
    package static let onePassword: ColumnMapping = {
        var mapping = try! ColumnMapping(
            parsing: "service=Title,account=Username,secret=Password,url=Url,otp=OTPAuth,tags=Tags,archived=Archived,notes=Notes")
        mapping.mayBeMissing = [.tags, .archived]
        return mapping
    }()

    /// The entries of a CSV export held in memory (keepassxc-cli's output); see `entries(reading:)`.
    package func entries(from csv: SecretBytes) throws -> ImportBatch {
        try entries(reading: ExportStream(bytes: csv))
    }

    /// The entries of a CSV export read row by row from `stream`, the rows left out (no service;
    /// neither a secret nor a note) and the rows of another width. Throws `ImportProblem` for a
    /// quote that never ends (naming its line) or a missing column.
    package func entries(reading stream: ExportStream) throws -> ImportBatch {
        var rows = try CSVRows(stream)
        let headerRow = try rows.next()
        let header = try (headerRow?.cells ?? []).map { cell in
            guard let name = cell.withUnsafeBytes({ String(validating: $0.bindMemory(to: UInt8.self), as: UTF8.self) }) else {
                throw ImportProblem(.line(headerRow?.line ?? 1), .notText)
            }
            return name
        }
        let lowered = header.map { $0.lowercased() }
        let indexes = try columns.compactMap { column -> (role: Role, header: String, index: Int)? in
            guard let index = lowered.firstIndex(of: column.header.lowercased()) else {
                if mayBeMissing.contains(column.role) { return nil }
                throw ImportProblem(.line(1), .missingColumn(column.header))
            }
            return (column.role, header[index], index)
        }
        var batch = ImportBatch()
        while let row = try rows.next() {
            let origin = ImportOrigin.line(row.line)
            guard row.cells.count == header.count else {
                batch.bad.append(ImportProblem(origin, .fieldCount(expected: header.count, found: row.cells.count)))
                continue
            }
            func cell(_ role: Role) -> SecretBytes? {
                indexes.first { $0.role == role }.map { row.cells[$0.index] }.flatMap { $0.count > 0 ? $0 : nil }
            }
            func text(_ role: Role) throws -> String? {
                try cell(role).map { value in
                    guard let text = value.withUnsafeBytes({ String(validating: $0.bindMemory(to: UInt8.self), as: UTF8.self) }) else {
                        throw ImportProblem(origin, .notText)
                    }
                    return text
                }
            }
            guard let service = try text(.service) else {
                batch.skipped.append(ImportProblem(origin, .noName))
                continue
            }
            var notes = NotesText()
            for column in indexes where column.role == .url { notes.add("url", row.cells[column.index]) }
            notes.add("tags", cell(.tags))
            if let flag = try text(.archived), flag.lowercased() == "true" { notes.add("archived", SecretBytes(Array("true".utf8))) }
            let notesColumns = indexes.filter { $0.role == .notes }
            for column in notesColumns.dropFirst() { notes.add(column.header, row.cells[column.index]) }
            if let free = notesColumns.first { notes.add(row.cells[free.index]) }
            var entry = ImportEntry(
                origin: origin, folders: [], service: service, account: try text(.account) ?? "",
                secret: SecretBytes(count: 0), fields: SealedFields(notes: notes.finish(), oneTimeCode: cell(.otp)))
            if let secret = cell(.secret) {
                entry.secret = secret
            } else if let note = entry.fields[.notes] {
                (entry.secret, entry.kind) = (note, .note)
                entry.fields[.notes] = nil
            } else {
                batch.skipped.append(ImportProblem(origin, .nothingToKeep))
                continue
            }
            let folders = try text(.folder).map { $0.split(separator: "/").map(String.init) } ?? []
            entry.folders = Array(folders.dropFirst(folderHasRoot ? 1 : 0))
            batch.entries.append(entry)
        }
        return batch
    }
}
