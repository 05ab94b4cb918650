#if canImport(Glibc)
import Glibc
#endif
import VaultCore

/// The words for Storage/'s errors.
extension ErrorReport {
    /// A StorageError in words.
    static func describe(_ error: StorageError) -> ErrorReport {
        let status = error.status
        switch error {
        case .noSuchVault(let path):
            return ErrorReport(
                status: status, message: "no vault at \(quoted(path))",
                hint: "create one with 'vault init', or choose another with --vault or VAULT_PATH")
        case .vaultExists(let path):
            return ErrorReport(
                status: status, message: "a vault already exists at \(quoted(path))",
                hint: "use it as it is, or choose another path with --vault or VAULT_PATH")
        case .insecurePermissions(let path, let mode):
            let octal = String(mode, radix: 8)
            return ErrorReport(
                status: status, message: "\(quoted(path)) is accessible by other users (mode 0\(octal))",
                hint: "restrict it with 'chmod 600 \(shellQuoted(path))'")
        case .writableByOthers(let path, let mode):
            let octal = String(mode, radix: 8)
            return ErrorReport(
                status: status, message: "\(quoted(path)) may be changed by other users (mode 0\(octal))",
                hint: "take their write access away with 'chmod go-w \(shellQuoted(path))'")
        case .ownedByAnotherUser(let path, let owner):
            return ErrorReport(
                status: status, message: "\(quoted(path)) is owned by another user (uid \(owner))",
                hint: "check who put it there, then remove it or make it yours with 'sudo chown \(getuid()) \(shellQuoted(path))'")
        case .notARegularFile(let path, let fileType):
            return ErrorReport(
                status: status, message: "\(quoted(path)) is \(describe(fileType: fileType)), not a vault file",
                hint: "name a vault file with --vault or VAULT_PATH, or a path where none is yet for 'vault init'")
        case .symbolicLink(let path):
            return ErrorReport(
                status: status, message: "\(quoted(path)) is a symbolic link; vault does not write through links",
                hint: "give the real path, or remove the link first")
        case .noSuchFile(let path, let kind):
            return ErrorReport(
                status: status, message: "cannot read the \(words(kind)) \(shownPath(path)): no such file", hint: makerHint(kind))
        case .unreadableFile(let path, let kind, EISDIR):
            return ErrorReport(
                status: status, message: "cannot read the \(words(kind)) \(shownPath(path)): it is a directory",
                hint: "name a file, not a directory")
        case .unreadableFile(let path, let kind, let code):
            // A secret given where a path belongs (too long a name, say) is not echoed, in the hint either.
            let shown = shownPath(path)
            return ErrorReport(
                status: status, message: "cannot read the \(words(kind)) \(shown): \(String(cString: strerror(code)).lowercased())",
                hint: shown == quoted(path) ? "check its permissions with 'ls -l \(shellQuoted(path))'" : "give the path of a file")
        case .io(let path, let operation, let code):
            return ErrorReport(
                status: status, message: "cannot \(words(operation)) \(quoted(path)): \(String(cString: strerror(code)))",
                hint: ioHint(path: path, operation: operation, code: code))
        }
    }

    /// What a file of this type (`st_mode & S_IFMT`) is, with its article.
    private static func describe(fileType: UInt32) -> String {
        switch mode_t(fileType) {
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
        }
    }

    /// What to check after a system call failed: a read names a missing or
    /// unreadable file, never the directory's write permission.
    private static func ioHint(path: String, operation: FileOperation, code: Int32) -> String {
        let reads = [.open, .read, .stat].contains(operation)
        switch code {
        case ENOENT where reads:
            return "the file does not exist: check the path"
        case EACCES where reads, EPERM where reads:
            return "you may not read it: check its permissions with 'ls -l \(shellQuoted(path))'"
        case ENOTDIR:
            return "a part of the path is a file, not a directory: check the path"
        default:
            return reads
                ? "check that the path names a file you may read"
                : "check that the path exists and that you may write to its directory"
        }
    }

    /// What a file of this kind is, after "the".
    private static func words(_ kind: InputFileKind) -> String {
        switch kind {
        case .credential: return "credential file"
        case .bundle: return "export bundle"
        case .keyFile: return "key file"
        case .bundleKeyFile: return "bundle key file"
        case .passphraseFile: return "passphrase file"
        case .secretFile: return "secret file"
        case .identity: return "identity file"
        case .plaintextExport: return "plaintext export"
        case .mergeSide: return "merge input"
        case .export: return "export file"
        }
    }

    /// Which command makes a missing file of this kind.
    static func makerHint(_ kind: InputFileKind) -> String {
        switch kind {
        case .credential: return "make one with 'vault grant --group GROUP --out FILE', or point --credential (or VAULT_CREDENTIAL) at it"
        case .bundle: return "make one with 'vault export --out FILE' on the vault the items come from"
        case .keyFile: return "make one with 'vault init --key-file FILE' or 'vault passwd --add-key-file FILE', or point the option at it"
        case .bundleKeyFile: return "use the key file 'vault export --bundle-key-file FILE' made with the bundle"
        case .passphraseFile: return "write the passphrase to a file only you can read (chmod 600), or leave the option out to be asked"
        case .secretFile: return "check the path: --secret-file reads the secret from a file that exists"
        case .identity: return "make one with 'vault identity new', or point --identity (or VAULT_IDENTITY) at an age identity file"
        case .plaintextExport:
            return "make one with 'vault export --format csv --plaintext --out FILE' (or json) on the vault the items come from"
        case .mergeSide: return "git names the merge driver's files itself: run it as git configures it ('vault sync --setup')"
        case .export: return "export it from the other password manager first (docs/IMPORT.md says how), and give its path"
        }
    }
}
