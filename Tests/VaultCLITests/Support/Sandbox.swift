import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What one run of the built `vault` binary did.
struct RunResult {
    var status: Int32
    var stdout: [UInt8]
    var stderr: String

    var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
}

/// A throwaway HOME for end-to-end tests: runs the built `vault` binary with
/// no controlling terminal (a new session), files for stdin/stdout/stderr,
/// and an environment that holds only what the test gives it. Sendable by
/// hand: concurrent tests only run commands in it; the environment is set up
/// before any of them start.
final class Sandbox: @unchecked Sendable {
    let home: String
    var environment: [String: String]
    /// The program and arguments every command runs under (a session keyring of a test login), or none.
    var wrapper: [String] = []
    /// The session keyrings made for this sandbox's logins, removed with it.
    private var keyrings: [String] = []

    init() throws {
        let base = FileManager.default.temporaryDirectory.path + "/vault-test-" + UUID().uuidString
        try FileManager.default.createDirectory(
            atPath: base, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        home = base
        let binaryDirectory = URL(fileURLWithPath: Sandbox.vaultBinary).deletingLastPathComponent().path
        // Sessions stay out of the kernel keyring unless a test asks for a login (`login(_:)`):
        // the keyring of the process running the tests is this machine's, shared by every test.
        environment = [
            "HOME": base, "PATH": binaryDirectory + ":/usr/bin:/bin", "LANG": "C.UTF-8",
            "XDG_RUNTIME_DIR": base + "/run", "VAULT_NO_KEYRING": "1"
        ]
    }

    deinit {
        for keyring in keyrings {
            _ = try? Sandbox.spawn(
                "/usr/bin/python3", [Sandbox.keyringHelper, "remove", keyring], environment: [:],
                directory: "/", stdin: "/dev/null", stdout: "/dev/null", stderr: "/dev/null")
        }
        try? FileManager.default.removeItem(atPath: home)
    }

    /// The helper that makes and joins test logins' keyrings (Support/keyring.py).
    static let keyringHelper = packageRoot + "/Tests/VaultCLITests/Support/keyring.py"

    /// Runs the commands from now on in the test login `name`: a session keyring of its own, made on
    /// first use, as pam_keyinit gives a login; `blocked` runs them where the keyring system calls
    /// are refused, as in a container whose seccomp filter blocks them. Turns the keyring on.
    func login(_ name: String) throws {
        environment["VAULT_NO_KEYRING"] = nil
        environment["KEYRING_HELPER"] = Sandbox.keyringHelper
        if name == "blocked" {
            wrapper = ["/usr/bin/python3", Sandbox.keyringHelper, "blocked"]
            return
        }
        let keyring = "vault-test-\(name)-" + URL(fileURLWithPath: home).lastPathComponent
        if !keyrings.contains(keyring) {
            wrapper = []
            let made = try run("/usr/bin/python3", [Sandbox.keyringHelper, "new", keyring])
            guard made.status == 0 else { throw SandboxError.setupFailed("keyring \(keyring): \(made.stderr)") }
            keyrings.append(keyring)
        }
        wrapper = ["/usr/bin/python3", Sandbox.keyringHelper, "join", keyring]
    }

    /// The default vault path in this HOME.
    var vaultPath: String { home + "/.local/share/vault/default.vault" }

    /// A path inside the sandbox.
    func path(_ name: String) -> String { name.hasPrefix("/") ? name : home + "/" + name }

    /// Writes a file (mode 0600 unless told otherwise).
    func write(_ name: String, _ bytes: [UInt8], mode: Int = 0o600) throws {
        let target = path(name)
        // A new file through a close-on-exec descriptor (FileManager's temporary file is not one):
        // a process another test started meanwhile would keep that open for writing, and a fake
        // tool written here would then not run (ETXTBSY; the command running it exits 127).
        unlink(target)
        let fd = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(mode))
        guard fd >= 0 else { throw SandboxError.setupFailed("open \(name): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        guard written, fchmod(fd, mode_t(mode)) == 0 else {
            throw SandboxError.setupFailed("write \(name): \(String(cString: strerror(errno)))")
        }
    }

    func read(_ name: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path(name)).map { Array($0) }
    }

    /// Runs `vault ARGS` in the sandbox HOME and waits for it.
    @discardableResult
    func vault(_ arguments: [String], stdin: [UInt8] = [], environment extra: [String: String] = [:]) throws -> RunResult {
        try run(Sandbox.vaultBinary, arguments, stdin: stdin, environment: extra)
    }

    /// Runs any program the same way.
    func run(_ program: String, _ arguments: [String], stdin: [UInt8] = [], environment extra: [String: String] = [:]) throws -> RunResult {
        let io = home + "/.io-" + UUID().uuidString
        try Data(stdin).write(to: URL(fileURLWithPath: io + ".in"))
        FileManager.default.createFile(atPath: io + ".out", contents: nil)
        FileManager.default.createFile(atPath: io + ".err", contents: nil)
        defer {
            for suffix in [".in", ".out", ".err"] { try? FileManager.default.removeItem(atPath: io + suffix) }
        }
        let status = try Sandbox.spawn(
            program, arguments, environment: environment.merging(extra) { $1 }, wrapper: wrapper,
            directory: home, stdin: io + ".in", stdout: io + ".out", stderr: io + ".err")
        let out = FileManager.default.contents(atPath: io + ".out").map { Array($0) } ?? []
        let err = FileManager.default.contents(atPath: io + ".err").map { String(decoding: $0, as: UTF8.self) } ?? ""
        return RunResult(status: status, stdout: out, stderr: err)
    }

    /// Runs a program in a new session (no controlling terminal) with every
    /// signal unblocked — test-runner threads block SIGCHLD, and a shell that
    /// inherits that mask waits for its children forever — and returns its
    /// exit status (128 + N for a signal).
    static func spawn(
        _ program: String, _ arguments: [String], environment: [String: String], wrapper: [String] = [],
        directory: String, stdin: String, stdout: String, stderr: String
    ) throws -> Int32 {
        waitForExit(
            try launch(
                program, arguments, environment: environment, wrapper: wrapper, directory: directory,
                stdin: stdin, stdout: stdout, stderr: stderr))
    }

    /// Starts a program as `spawn` does (under `wrapper`, a program that runs the rest of its
    /// arguments, when given) and returns its pid without waiting.
    static func launch(
        _ program: String, _ arguments: [String], environment: [String: String], wrapper: [String] = [],
        directory: String, stdin: String, stdout: String, stderr: String
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_TRUNC, 0)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_TRUNC, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        // glibc's POSIX_SPAWN_SETSID (0x80) is only declared with _GNU_SOURCE.
        posix_spawnattr_setflags(&attributes, Int16(0x80 | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        // env -C sets the working directory (posix_spawn_file_actions_addchdir_np needs _GNU_SOURCE too).
        let argv = (wrapper + ["/usr/bin/env", "-C", directory, program] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid = pid_t()
        let result = posix_spawn(&pid, wrapper.first ?? "/usr/bin/env", &actions, &attributes, argv, envp)
        guard result == 0 else { throw SandboxError.setupFailed("posix_spawn \(program): \(String(cString: strerror(result)))") }
        return pid
    }

    /// Waits for a launched program; its exit status, or 128 + N for signal N.
    static func waitForExit(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    /// Creates a vault unlocked by the key file `key` (fast: no scrypt) and points VAULT_KEY_FILE at it.
    func initWithKeyFile() throws {
        let result = try vault(["init", "--key-file", path("key")])
        guard result.status == 0 else { throw SandboxError.setupFailed(result.stderr) }
        environment["VAULT_KEY_FILE"] = path("key")
    }

    /// The built binary: VAULT_BINARY, else `vault` beside the test bundle, else .build/debug/vault.
    static let vaultBinary: String = {
        if let path = ProcessInfo.processInfo.environment["VAULT_BINARY"], !path.isEmpty { return path }
        let bundleDir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
        for candidate in [bundleDir + "/vault", bundleDir + "/../vault"] where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        return packageRoot + "/.build/debug/vault"
    }()

    /// The package's root directory, from this file's path.
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()
}

enum SandboxError: Error {
    case setupFailed(String)
}
