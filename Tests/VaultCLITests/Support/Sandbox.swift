import Foundation

/// What one run of the built `vault` binary did.
struct RunResult {
    var status: Int32
    var stdout: [UInt8]
    var stderr: String

    var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
}

/// A throwaway HOME for end-to-end tests: runs the built `vault` binary with
/// no controlling terminal (through setsid), files for stdin/stdout/stderr,
/// and an environment that holds only what the test gives it.
final class Sandbox {
    let home: String
    var environment: [String: String]

    init() throws {
        let base = FileManager.default.temporaryDirectory.path + "/vault-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        home = base
        let binaryDirectory = URL(fileURLWithPath: Sandbox.vaultBinary).deletingLastPathComponent().path
        environment = ["HOME": base, "PATH": binaryDirectory + ":/usr/bin:/bin", "LANG": "C.UTF-8"]
    }

    deinit {
        try? FileManager.default.removeItem(atPath: home)
    }

    /// The default vault path in this HOME.
    var vaultPath: String { home + "/.local/share/vault/default.vault" }

    /// A path inside the sandbox.
    func path(_ name: String) -> String { name.hasPrefix("/") ? name : home + "/" + name }

    /// Writes a file (mode 0600 unless told otherwise).
    func write(_ name: String, _ bytes: [UInt8], mode: Int = 0o600) throws {
        let target = path(name)
        FileManager.default.createFile(atPath: target, contents: Data(bytes), attributes: [.posixPermissions: mode])
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: target)
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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        process.arguments = ["-w", program] + arguments
        process.environment = environment.merging(extra) { $1 }
        process.currentDirectoryURL = URL(fileURLWithPath: home)
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: io + ".in"))
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: io + ".out"))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: io + ".err"))
        try process.run()
        process.waitUntilExit()
        let out = FileManager.default.contents(atPath: io + ".out").map { Array($0) } ?? []
        let err = FileManager.default.contents(atPath: io + ".err").map { String(decoding: $0, as: UTF8.self) } ?? ""
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return RunResult(status: status, stdout: out, stderr: err)
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
