#if canImport(Glibc)
import Glibc
#endif

/// A command of the installed git binary, run by `vault scan` with its
/// streams on the descriptors given.
struct GitProcess {
    let pid: pid_t

    /// Starts `git -C directory ARGUMENTS` with `environment`; nil for stdin keeps vault's.
    static func spawn(_ arguments: [String], in directory: String, environment: [String: String],
                      stdin: Int32? = nil, stdout: Int32, stderr: Int32) throws -> GitProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdin { posix_spawn_file_actions_adddup2(&actions, stdin, 0) }
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))
        let argv = (["git", "-C", directory] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid = pid_t()
        let result = posix_spawnp(&pid, "git", &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw CommandFailure(.failure, "cannot run git: \(String(cString: strerror(result)))",
                                 hint: "install git (apt-get install git) and make sure it is on PATH")
        }
        return GitProcess(pid: pid)
    }

    /// Waits for git to end; its exit status (128 + N for signal N).
    func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    /// Runs git to the end and returns its stdout; a failure names the
    /// command and quotes git's first line of stderr.
    static func output(_ arguments: [String], in directory: String, environment: [String: String]) throws -> [UInt8] {
        let stdout = try PipeEnds()
        let stderr = try PipeEnds()
        let git: GitProcess
        do {
            defer {
                close(stdout.writeEnd)
                close(stderr.writeEnd)
            }
            git = try spawn(arguments, in: directory, environment: environment, stdout: stdout.writeEnd, stderr: stderr.writeEnd)
        }
        let output = Terminal.readAll(stdout.readEnd)
        close(stdout.readEnd)
        try git.finish(arguments, stderr: stderr.readEnd)
        return output
    }

    /// Waits for git and closes `stderr`; throws when git failed, with its first line of stderr.
    func finish(_ arguments: [String], stderr: Int32) throws {
        let message = Terminal.readAll(stderr)
        close(stderr)
        let status = wait()
        guard status == 0 else {
            let firstLine = message.split(separator: 0x0A).first.map { String(decoding: $0, as: UTF8.self) } ?? "exit status \(status)"
            throw CommandFailure(.failure, "git \(arguments.first ?? "") failed: \(firstLine)",
                                 hint: "check that the path is a git repository that git itself can read ('git -C PATH log' works)")
        }
    }
}

/// Reads a descriptor through a buffer, a line or an exact count at a time.
final class BufferedReader {
    private let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    private var end = 0

    init(_ fd: Int32) {
        self.fd = fd
    }

    /// Refills the buffer when it is empty; false at the end of input.
    private func fill() -> Bool {
        guard start == end else { return true }
        start = 0
        end = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            end = n
            return true
        }
    }

    /// The next line without its newline, or nil at the end of input.
    func readLine() -> [UInt8]? {
        var line: [UInt8] = []
        while fill() {
            if let newline = buffer[start..<end].firstIndex(of: 0x0A) {
                line += buffer[start..<newline]
                start = newline + 1
                return line
            }
            line += buffer[start..<end]
            start = end
        }
        return line.isEmpty ? nil : line
    }

    /// Reads up to `target.count` bytes; 0 at the end of input.
    func read(into target: UnsafeMutableRawBufferPointer) -> Int {
        guard !target.isEmpty, fill() else { return 0 }
        let count = min(target.count, end - start)
        buffer.withUnsafeBytes { target.baseAddress!.copyMemory(from: $0.baseAddress! + start, byteCount: count) }
        start += count
        return count
    }
}
