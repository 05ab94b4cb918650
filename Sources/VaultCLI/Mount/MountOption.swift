#if canImport(Glibc)
import Glibc
#endif
import VaultCore
import VaultCrypto

/// `vault run --mount PATH[=TEMPLATE]` with `--mount-format` and
/// `--mount-max-reads`: what the child reads from a named pipe instead of
/// its environment, and where the pipe is.
struct MountOption {
    enum Format: String, CaseIterable {
        case dotenv
        case json
    }

    /// PATH as given: empty or a bare name is made in a private directory
    /// under the runtime directory ($XDG_RUNTIME_DIR/vault).
    var path: String
    var template: LoadedTemplate?
    var format: Format
    /// Readers to serve before the path is removed; 0 for no limit.
    var maxReads: Int
    /// For a PATH with a `/`: its absolute form, its last component and its
    /// parent directory, opened and checked when the options are read, before
    /// any secret is.
    private var given: (path: String, name: String, directory: MountDirectory)?

    /// The options given (`arguments`, validated), or nil without --mount.
    init?(_ arguments: MountArguments) throws {
        guard let value = arguments.mount else { return nil }
        let equals = value.firstIndex(of: "=")
        path = String(value[..<(equals ?? value.endIndex)])
        template = try equals.map { try LoadedTemplate(path: String(value[value.index(after: $0)...])) }
        let formatName = arguments.format ?? Format.dotenv.rawValue
        guard let format = Format(rawValue: formatName) else {
            throw UsageError(
                "unknown --mount-format \(quoted(formatName))",
                hint: "use one of: \(Format.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if template != nil, arguments.format != nil {
            throw UsageError("--mount-format applies only without a template", hint: "drop --mount-format, or =TEMPLATE from --mount")
        }
        self.format = format
        maxReads = try arguments.maxReads?.get() ?? 0
        if path.contains("/") {
            let full = MountOption.absolute(path)
            let slash = full.lastIndex(of: "/")!
            let name = String(full[full.index(after: slash)...])
            guard !name.isEmpty, name != ".", name != ".." else {
                throw CommandFailure(
                    .usage, "cannot create the pipe \(quoted(full)) for --mount: it names a directory",
                    hint: "give --mount a path that does not exist yet, in a directory that does")
            }
            let parent = slash == full.startIndex ? "/" : String(full[..<slash])
            given = (full, name, try MountDirectory(parentOf: full, path: parent))
        }
    }

    /// The template's references, to resolve with the environment's.
    var referenceUses: [ReferenceUse] { template?.referenceUses ?? [] }

    /// Creates the pipe and serves it. Changes the child's `variables`:
    /// `VAULT_MOUNT_PATH` is added and, without a template, the variables that
    /// held references move from the environment to the pipe.
    func start(
        _ childVariables: inout [(name: String, value: [UInt8])], from environment: ChildEnvironment,
        secrets: [SourceReference: SecretBytes], invocation: Invocation
    ) throws -> MountPipe {
        let variables = childVariables
        let content: SecretBytes
        if let template {
            content = template.rendered(with: secrets)
        } else {
            // Resolved with no secrets, each variable keeps its text: a reference stays one.
            let referenced = Set(
                try environment.resolved(with: [:])
                    .filter { SourceReference.isReference(String(decoding: $0.value, as: UTF8.self)) }.map(\.name))
            childVariables.removeAll { referenced.contains($0.name) }
            let mounted = try variables.filter { referenced.contains($0.name) }.map { variable in
                guard String(validating: variable.value, as: UTF8.self) != nil else {
                    throw CommandFailure(
                        .usage, "the secret for \(variable.name) is not UTF-8 text, so it cannot be written as \(format.rawValue)",
                        hint: "mount a template instead: --mount PATH=TEMPLATE")
                }
                return (name: variable.name, value: SecretBytes(variable.value))
            }
            let envFormat = format == .json ? EnvFormat.json : EnvFormat.dotenv
            let unwritable = envFormat.unwritable(mounted)
            guard unwritable.isEmpty else {
                throw CommandFailure(
                    .usage, "dotenv cannot hold the secret of \(unwritable.joined(separator: ", ")) so that every reader reads it back",
                    hint: "mount it as JSON with --mount-format json, or through a template")
            }
            content = envFormat.render(mounted)
        }
        let (fullPath, directory, name, made) = try location(invocation.environment)
        let pipe: MountPipe
        do {
            pipe = try MountPipe(
                path: fullPath, directory: directory, name: name, content: content, maxReads: maxReads,
                directoryToRemove: made, terminal: invocation.terminal)
        } catch {
            if let made { rmdir(made) }
            throw error
        }
        childVariables.removeAll { $0.name == EnvironmentVariable.vaultMountPath.name }
        childVariables.append((name: EnvironmentVariable.vaultMountPath.name, value: Array(fullPath.utf8)))
        return pipe
    }

    /// PATH made absolute against the working directory.
    private static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/"), let cwd = getcwd(nil, 0) else { return path }
        defer { free(cwd) }
        return String(cString: cwd) + "/" + (path.hasPrefix("./") ? String(path.dropFirst(2)) : path)
    }

    /// The absolute path of the pipe, the directory it is made in and its name
    /// there, and the private directory made for it, if any.
    private func location(_ environment: [String: String]) throws
        -> (path: String, directory: MountDirectory, name: String, made: String?)
    {
        if let given { return (given.path, given.directory, given.name, nil) }
        let base = HostContext.live(environment: environment).runtimeDirectory
        mkdir(base, 0o700)
        var info = stat()
        guard stat(base, &info) == 0, info.st_uid == getuid(), info.st_mode & 0o077 == 0 else {
            throw CommandFailure(
                .failure, "the runtime directory \(quoted(base)) is missing or open to other users",
                hint: "set XDG_RUNTIME_DIR to a directory of yours, mode 0700, or give --mount a path with a /")
        }
        var pattern = Array((base + "/mount-XXXXXX").utf8CString)
        guard let made = mkdtemp(&pattern) else {
            throw VaultError.io(path: base, operation: .makeTemporaryDirectory, errno: errno)
        }
        let directory = String(cString: made)
        let name = path.isEmpty ? (format == .json ? "secrets.json" : "secrets.env") : path
        do {
            return (directory + "/" + name, try MountDirectory(privateDirectory: directory), name, directory)
        } catch {
            rmdir(directory)
            throw error
        }
    }
}
