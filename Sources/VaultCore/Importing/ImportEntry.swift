import VaultCrypto

/// One entry read from another password manager's export, before it becomes an item: what every
/// importer (`PassEntry`, `ColumnMapping`, `BitwardenExport`) produces, so one path adds them all.
package struct ImportEntry: Sendable {
    /// What the entry was in its source, for the summary.
    package enum Kind: String, CaseIterable, Sendable {
        /// A password (or a pass entry's first line).
        case login
        /// A note without a password: the note is the secret.
        case note
    }

    /// Where the entry was found (a line, a pass path), for messages.
    package var origin: ImportOrigin
    /// The folders above it in its source, outermost first (pass directories, KeePassXC groups,
    /// a Bitwarden folder): `--folders-as-groups` makes a group of them.
    package var folders: [String]
    /// The item's service (never empty).
    package var service: String
    /// The item's account (may be empty).
    package var account: String
    /// The item's secret.
    package var secret: SecretBytes
    /// Everything else of the entry, sealed beside the secret: notes and a one-time code.
    package var fields: SealedFields
    /// A login or a note.
    package var kind: Kind
    /// When the source says the entry was made and last changed, as it wrote them (ISO 8601,
    /// Bitwarden's `creationDate` and `revisionDate`); nil where it says nothing. The caller reads
    /// them (and says so when one does not read as a date): the item keeps them, not the import's time.
    package var created: String?
    /// When the source says the entry last changed (as `created`).
    package var modified: String?

    /// An entry with these names, secret and fields.
    package init(
        origin: ImportOrigin, folders: [String], service: String, account: String, secret: SecretBytes,
        fields: SealedFields = SealedFields(), kind: Kind = .login
    ) {
        self.origin = origin
        self.folders = folders
        self.service = service
        self.account = account
        self.secret = secret
        self.fields = fields
        self.kind = kind
    }
}

/// What an importer read from its source: the entries, those left out by design (a card, a row
/// with nothing to keep) and those that are bad input (a malformed row, an entry that does not
/// decrypt), which stop the import unless the caller keeps what parsed.
package struct ImportBatch: Sendable {
    /// The entries read.
    package var entries: [ImportEntry] = []
    /// Entries left out, and why: reported, never an error.
    package var skipped: [ImportProblem] = []
    /// Bad input, entry by entry.
    package var bad: [ImportProblem] = []

    /// An empty batch.
    package init() {}

    /// Moves every entry whose name (as `key` gives it) an earlier entry has to `bad`
    /// (`sameNameAs` the first): two entries of one source are never merged silently.
    package mutating func separateRepeatedNames<Key: Hashable>(by key: (ImportEntry) -> Key) {
        var first: [Key: ImportOrigin] = [:]
        var kept: [ImportEntry] = []
        for entry in entries {
            let name = key(entry)
            if let earlier = first[name] {
                bad.append(ImportProblem(entry.origin, .sameNameAs(earlier)))
            } else {
                first[name] = entry.origin
                kept.append(entry)
            }
        }
        entries = kept
    }
}

/// Where in an export an entry or a problem was found (the command line words it).
package enum ImportOrigin: Hashable, Sendable {
    /// A line of a CSV file, from 1.
    case line(Int)
    /// The column mapping the user gave.
    case columnMapping
    /// Item `number` (from 1) of a JSON export, with its name when it has one.
    case item(Int, name: String?)
    /// A named source: a pass entry's path, or the export file itself.
    case named(String)
}

/// What makes a file not the JSON an import format needs (`ImportProblem.Reason.malformedJSON`).
package enum JSONFault: Equatable, Sendable {
    /// What a JSON parser meets instead of JSON (`tooDeep`: nesting deeper than 64).
    case textAfterEnd, unexpectedCharacter, tooDeep, unexpectedEnd, keyNotString, keyNotUTF8
    /// What is wrong inside a JSON string.
    case unterminatedString, controlCharacter, loneSurrogate, unknownEscape, badUnicodeEscape
    /// A Bitwarden export without its `items` array.
    case noItemsArray
}

/// Why an export cannot be read, or why one of its entries is left out: facts the command line
/// turns into words, naming `origin` (a line of a file, an entry of a store).
package struct ImportProblem: Error, Equatable, Sendable {
    /// What is wrong.
    package enum Reason: Equatable, Sendable {
        /// A quoted CSV field that never ends.
        case unterminatedQuote
        /// Something other than a comma or a line break after a CSV field's closing quote.
        case textAfterQuote
        /// A CSV row with another number of fields than the header.
        case fieldCount(expected: Int, found: Int)
        /// A column the mapping needs is not in the header.
        case missingColumn(String)
        /// A `--columns` entry that is not ROLE=COLUMN with a known role, or lacks a required role.
        case badMapping(String)
        /// A name (service, account, folder, header) that is not UTF-8.
        case notText
        /// The file is not the JSON the format needs: what is wrong, and the byte offset where it
        /// stopped making sense (nil for JSON that parses but lacks what the format needs).
        case malformedJSON(JSONFault, at: Int?)
        /// A Bitwarden export sealed with a password or an account key: export it unencrypted.
        case encryptedExport
        /// An entry with no service (no title, no name).
        case noName
        /// An entry with neither a password nor a note: nothing to keep as the secret.
        case nothingToKeep
        /// An entry of a kind vault does not import (a Bitwarden card or identity).
        case unsupportedKind(String)
        /// A second entry with the name of an earlier one (`origin` of the first).
        case sameNameAs(ImportOrigin)
        /// The source could not be decrypted: no secret key for it (pass), or the program failed.
        case undecryptable(String)
        /// The export is larger than `ImportLimits.maxExportBytes`.
        case tooLarge(bytes: Int, limit: Int)
        /// An entry of a password store that is not a regular file (a link is not followed).
        case notAFile(FileKind)
        /// A password store entry whose name begins with a dot (`..gpg`, `.x.gpg`), which pass does not list.
        case hiddenName
    }

    /// What a password store holds in an entry's place.
    package enum FileKind: Equatable, Sendable {
        /// A symbolic link, which vault does not follow.
        case symbolicLink
        /// A named pipe (FIFO), which could block a reader for ever.
        case fifo
        /// A UNIX socket.
        case socket
        /// A block or character device.
        case device
    }

    /// The line, file or entry it concerns.
    package var origin: ImportOrigin
    /// What is wrong.
    package var reason: Reason

    /// A problem of `origin`.
    package init(_ origin: ImportOrigin, _ reason: Reason) {
        self.origin = origin
        self.reason = reason
    }
}

extension AccessGroup {
    /// The group a folder path becomes (`--folders-as-groups`): its parts joined by "-", every
    /// character a group name cannot hold made "-", cut to 64 bytes; nil when nothing is left.
    package init?(folders: [String]) {
        var name = String(
            folders.joined(separator: "-").unicodeScalars.map { scalar -> Character in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "._-".unicodeScalars.contains(scalar))
                    ? Character(scalar) : "-"
            })
        while let first = name.first, !(first.isASCII && (first.isLetter || first.isNumber)) { name.removeFirst() }
        self.init(String(name.prefix(AccessGroup.maxLength)))
    }
}

/// The notes of an imported entry: labelled lines ("url: …", a custom field's "name: value") then
/// the free text, built in locked memory.
struct NotesText {
    private var builder = SecretBytesBuilder(capacity: 256)
    private var isEmpty = true

    /// Adds "label: value" on a line of its own; nothing for an empty value.
    mutating func add(_ label: String, _ value: SecretBytes?) {
        guard let value, value.count > 0 else { return }
        newLine()
        builder.append(label + ": ")
        builder.append(value)
    }

    /// Adds free text (a note) on lines of its own; nothing when empty.
    mutating func add(_ text: SecretBytes?) {
        guard let text, text.count > 0 else { return }
        newLine()
        builder.append(text)
    }

    private mutating func newLine() {
        if !isEmpty { builder.append("\n") }
        isEmpty = false
    }

    /// The notes, or nil when nothing was added.
    mutating func finish() -> SecretBytes? {
        isEmpty ? nil : builder.finish()
    }
}
