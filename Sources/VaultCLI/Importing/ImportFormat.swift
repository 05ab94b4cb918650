#if canImport(Glibc)
import Glibc
#endif
import VaultCore
import VaultCrypto

/// A format `vault import --from` reads, and how its source becomes an `ImportBatch`: a file read
/// into locked memory, a password store decrypted entry by entry through the user's own gpg, a
/// KeePassXC database exported through keepassxc-cli. Plaintext only ever passes through pipes.
enum ImportFormat: String, CaseIterable {
    case pass, gopass
    case keepassxcCSV = "keepassxc-csv"
    case kdbx
    case bitwardenJSON = "bitwarden-json"
    case onePasswordCSV = "1password-csv"
    case csv
    case openbao

    /// Whether an entry's folder is the front of its service when folders do not become groups:
    /// a pass entry is named by its path; elsewhere the title names an entry and the folder is left.
    var foldersNameTheService: Bool { self == .pass || self == .gopass }

    /// What `source` holds, read as this format, with the options `arguments` give. `source` nil: the password store's default.
    func read(_ source: String?, _ arguments: ImportArguments, _ invocation: Invocation) throws -> (batch: ImportBatch, source: String) {
        switch self {
        case .pass, .gopass:
            let store = source ?? invocation.environment[.passwordStoreDir] ?? ((invocation.environment[.home] ?? "") + "/.password-store")
            return (try PasswordStore(directory: store).read(invocation, maxEntries: arguments.maxEntries), store)
        case .openbao:
            let tree = try OpenBaoImport(source)
            return (try tree.read(invocation, maxEntries: arguments.maxEntries), "\(tree.mount)/\(tree.prefix)")
        case .kdbx:
            guard let source else { throw UsageError("no database named", hint: "give the .kdbx file: vault import --from kdbx FILE") }
            return (
                try KeePassXCDatabase(path: source).read(
                    invocation, keyFile: arguments.kdbxKeyFile, passwordFile: arguments.kdbxPasswordFile), source
            )
        case .keepassxcCSV, .onePasswordCSV, .csv, .bitwardenJSON:
            guard let source else {
                throw UsageError("no file named", hint: "give the export file, or - for stdin: vault import --from \(rawValue) FILE")
            }
            let stream = source == "-" ? ExportStream(fileDescriptor: STDIN_FILENO, name: "stdin") : try ExportStream.open(path: source)
            switch self {
            case .bitwardenJSON: return (try BitwardenExport.entries(reading: stream, origin: .named(source)), source)
            case .keepassxcCSV: return (try ColumnMapping.keePassXC.entries(reading: stream), source)
            case .onePasswordCSV: return (try ColumnMapping.onePassword.entries(reading: stream), source)
            default:
                guard let columns = arguments.columns else {
                    throw UsageError(
                        "--from csv needs --columns",
                        hint: "say which column is which, e.g. --columns service=Title,account=Username,secret=Password")
                }
                return (try ColumnMapping(parsing: columns).entries(reading: stream), source)
            }
        }
    }
}

/// A pass (or gopass) store: every `.gpg` file under its directory, hidden ones (`.git`,
/// `.gpg-id`, `.extensions`) left out, decrypted by `gpg --decrypt` as pass does, so gpg-agent
/// and pinentry work as they do for pass. What is passed over outside hidden directories — a
/// link, a named pipe, a `.gpg` name that begins with a dot — is reported as left out.
struct PasswordStore {
    let directory: String

    /// More than `maxEntries` `.gpg` files refuse the import before any is decrypted.
    func read(_ invocation: Invocation, maxEntries: Int) throws -> ImportBatch {
        var info = stat()
        guard stat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw UsageError(
                "there is no password store at \(quoted(directory))",
                hint: "give the store's directory, or set PASSWORD_STORE_DIR")
        }
        let root = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        let walk = try ScanFiles(root: root, skipIgnored: false, environment: invocation.environment)
        func relative(_ path: String) -> [Substring] { path.dropFirst(root.count + 1).split(separator: "/") }
        // Hidden directories (.git, .extensions) are the store's machinery; a hidden name beside the entries is reported.
        func inHiddenDirectory(_ path: String) -> Bool { relative(path).dropLast().contains { $0.hasPrefix(".") } }
        var batch = ImportBatch()
        for other in walk.others where !inHiddenDirectory(other.path) {
            batch.skipped.append(ImportProblem(.named(String(other.path.dropFirst(root.count + 1))), .notAFile(other.kind)))
        }
        var files: [String] = []
        for path in walk.files where path.hasSuffix(".gpg") && !inHiddenDirectory(path) {
            if relative(path).last?.hasPrefix(".") == true {
                batch.skipped.append(ImportProblem(.named(String(path.dropFirst(root.count + 1))), .hiddenName))
            } else {
                files.append(path)
            }
        }
        if files.count > maxEntries { throw ImportCommand.tooManyEntries(files.count, limit: maxEntries) }
        let progress = ProgressLine.start(invocation, label: "decrypting", unit: "entry")
        defer { progress?.finish() }
        for (done, file) in files.enumerated() {
            progress?.update(done: done + 1, total: files.count)
            let name = String(file.dropFirst(root.count + 1).dropLast(4))
            let output = try ProgramOutput.run(
                [
                    "gpg", "--quiet", "--yes", "--compress-algo=none", "--no-encrypt-to", "--status-fd", "2",
                    "--decrypt", file
                ], environment: invocation.environment)
            let status = GnuPGStatus(output.stderr)
            guard output.status == 0 else {
                // gpg 2.2 reports a passphrase pinentry got wrong as DECRYPTION_FAILED ("No secret key")
                // too; that it launched pinentry says the agent held the key and could not unlock it.
                if status.contains("BAD_PASSPHRASE") || status.contains("PINENTRY_LAUNCHED") {
                    throw CommandFailure(
                        .authFailed, "gpg could not unlock the key of \(quoted(name)) with the passphrase given; nothing was imported",
                        hint: "try again, typing the passphrase of your gpg key when pinentry asks")
                }
                // gpg 2.2 says DECRYPTION_FAILED, not always NO_SECKEY, for a file encrypted to keys it lacks.
                let noKey = status.contains("NO_SECKEY") || status.contains("DECRYPTION_FAILED")
                batch.bad.append(
                    ImportProblem(
                        .named(name), .undecryptable(noKey ? "gpg has no secret key for it" : "gpg exited with status \(output.status)")))
                continue
            }
            do {
                batch.entries.append(try PassEntry.entry(path: name.split(separator: "/").map(String.init), plaintext: output.stdout))
            } catch let problem as ImportProblem {
                batch.skipped.append(problem)
            }
        }
        return batch
    }
}

/// gpg's machine-readable status lines (`--status-fd`, doc/DETAILS in GnuPG): "[GNUPG:] KEYWORD …".
struct GnuPGStatus {
    private let keywords: Set<String>

    init(_ output: [UInt8]) {
        keywords = Set(
            output.split(separator: 0x0A).compactMap { line in
                let words = line.split(separator: 0x20)
                guard words.count >= 2, words[0].elementsEqual("[GNUPG:]".utf8) else { return nil }
                return String(decoding: words[1], as: UTF8.self)
            })
    }

    func contains(_ keyword: String) -> Bool { keywords.contains(keyword) }
}

/// A KeePassXC database, exported as CSV by the installed `keepassxc-cli` (vault never parses
/// KDBX itself), its password handed to it on stdin: from --kdbx-password-file or a prompt.
struct KeePassXCDatabase {
    let path: String

    /// KDBX's two signatures (KeePass's file header): a file that starts with them is a database.
    private static let signature: [UInt8] = [0x03, 0xD9, 0xA2, 0x9A, 0x67, 0xFB, 0x4B, 0xB5]

    /// `keyFile` and `passwordFile` are --kdbx-key-file and --kdbx-password-file.
    func read(_ invocation: Invocation, keyFile: String?, passwordFile: String?) throws -> ImportBatch {
        let head = try ExportFile.read(path: path).withUnsafeBytes { Array($0.prefix(8)) }
        guard head == KeePassXCDatabase.signature else {
            throw CommandFailure(
                .usage, "\(quoted(path)) is not a KeePassXC database (no KDBX signature)",
                hint: "give the .kdbx file, or import a CSV export with --from keepassxc-csv")
        }
        let password = try self.password(invocation, file: passwordFile)
        var argv = ["keepassxc-cli", "export", "--quiet", "--format", "csv"]
        if let keyFile { argv += ["--key-file", keyFile] }
        let input = password.appending(SecretBytes(Array("\n".utf8)))
        let output = try ProgramOutput.run(argv + [path], input: input, environment: invocation.environment)
        guard output.status == 0 else {
            // keepassxc-cli says nothing with --quiet and exits 1 for every failure; the file is a
            // database, so what it could not do is open it with the password (and key file) given.
            throw CommandFailure(
                .authFailed, "keepassxc-cli could not open \(quoted(path)) with the password given; nothing was imported",
                hint: "check the password (--kdbx-password-file FILE, or typed when asked) and the key file (--kdbx-key-file)")
        }
        return try ColumnMapping.keePassXC.entries(from: output.stdout)
    }

    private func password(_ invocation: Invocation, file: String?) throws -> SecretBytes {
        if let file { return try PassphraseFile.read(path: file) }
        let access = VaultAccess(invocation)
        if let reason = access.reasonPromptsAreOff {
            throw CommandFailure(
                .interactionNotAllowed, "no password for the KeePassXC database given, and vault may not prompt here (\(reason))",
                hint: "give --kdbx-password-file FILE")
        }
        guard let typed = try invocation.terminal.readHidden(prompt: "Password of \(path): ") else {
            throw CommandFailure.interactionNotAllowed(reason: "no terminal")
        }
        return SecretBytes(typed)
    }
}
