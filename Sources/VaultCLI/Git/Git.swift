#if canImport(Glibc)
import Glibc
#endif

/// The one way vault runs the installed `git` binary (`vault sync`, the merge
/// driver, `vault scan`): `git -C DIRECTORY ARGUMENTS` in the C locale, so
/// nothing vault reads back is translated, with what git did decided by its
/// exit status, never by the words it prints.
enum Git {
    /// What one git command did.
    struct Outcome {
        let status: Int32
        let stdout: [UInt8]
        let stderr: [UInt8]

        /// stdout as text, without its final newlines.
        var text: String {
            var text = String(decoding: stdout, as: UTF8.self)
            while text.last == "\n" { text.removeLast() }
            return text
        }

        /// git's first line of stderr, or the exit status when it printed none.
        var firstErrorLine: String {
            stderr.split(separator: 0x0A).first.map { String(decoding: $0, as: UTF8.self) } ?? "exit status \(status)"
        }
    }

    /// Runs git to the end with stdin from /dev/null, reading its stdout and
    /// stderr together (neither can fill its pipe while vault waits on the other).
    static func run(_ arguments: [String], in directory: String, environment: [String: String]) -> Outcome {
        guard let stdout = try? PipeEnds(), let stderr = try? PipeEnds() else {
            return Outcome(status: 127, stdout: [], stderr: Array("cannot make a pipe".utf8))
        }
        let git: GitProcess
        do {
            defer {
                close(stdout.writeEnd)
                close(stderr.writeEnd)
            }
            let devNull = open("/dev/null", O_RDONLY | O_CLOEXEC)
            defer { close(devNull) }
            do {
                git = try GitProcess.spawn(
                    arguments, in: directory, environment: environment,
                    stdin: devNull, stdout: stdout.writeEnd, stderr: stderr.writeEnd)
            } catch {
                close(stdout.readEnd)
                close(stderr.readEnd)
                return Outcome(status: 127, stdout: [], stderr: Array("cannot run git: install git and make sure it is on PATH".utf8))
            }
        }
        let (output, errors) = readBoth(stdout.readEnd, stderr.readEnd)
        close(stdout.readEnd)
        close(stderr.readEnd)
        return Outcome(status: git.wait(), stdout: output, stderr: errors)
    }

    /// Runs git and returns its stdout; a failure names the command, quotes
    /// git's first line of stderr, and gives `hint`.
    static func output(_ arguments: [String], in directory: String, environment: [String: String], hint: String) throws -> [UInt8] {
        let outcome = run(arguments, in: directory, environment: environment)
        guard outcome.status == 0 else {
            throw CommandFailure(.failure, "git \(arguments.joined(separator: " ")) failed: \(outcome.firstErrorLine)", hint: hint)
        }
        return outcome.stdout
    }

    /// The environment git runs in: the caller's, in the C locale.
    static func environment(from base: [String: String]) -> [String: String] {
        var environment = base
        environment[.localeAll] = "C"
        environment[.language] = nil
        return environment
    }

    /// Reads two descriptors to their ends at once, with poll.
    private static func readBoth(_ first: Int32, _ second: Int32) -> ([UInt8], [UInt8]) {
        var results: [[UInt8]] = [[], []]
        var open = [true, true]
        var chunk = [UInt8](repeating: 0, count: 65536)
        while open.contains(true) {
            var fds = [first, second].enumerated().map { pollfd(fd: open[$0.offset] ? $0.element : -1, events: Int16(POLLIN), revents: 0) }
            if poll(&fds, 2, -1) < 0 {
                if errno == EINTR { continue }
                break
            }
            for index in 0..<2 where open[index] && fds[index].revents != 0 {
                let n = chunk.withUnsafeMutableBytes { read(fds[index].fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { open[index] = false } else { results[index] += chunk[0..<n] }
            }
        }
        return (results[0], results[1])
    }
}

/// A git command running with its stdout on a descriptor of the caller's
/// (`vault scan` streams history through two of them) and its stderr into an
/// anonymous file, which never fills while the caller reads stdout.
struct GitProcess {
    let pid: pid_t
    private let errors: Int32

    /// Starts `git -C directory ARGUMENTS` in the C locale; nil for stdin keeps vault's.
    static func start(
        _ arguments: [String], in directory: String, environment: [String: String],
        stdin: Int32? = nil, stdout: Int32
    ) throws -> GitProcess {
        let errors = anonymousFile()
        guard errors >= 0 else {
            throw CommandFailure(.failure, "cannot run git: \(String(cString: strerror(errno)))")
        }
        do {
            let process = try spawn(arguments, in: directory, environment: environment, stdin: stdin, stdout: stdout, stderr: errors)
            return GitProcess(pid: process.pid, errors: errors)
        } catch {
            close(errors)
            throw error
        }
    }

    /// A file of the temporary directory, unlinked as soon as it is made, open read-write.
    private static func anonymousFile() -> Int32 {
        var template = Array(((EnvironmentVariable.temporaryDirectory.valueOfThisProcess ?? "/tmp") + "/vault-git-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if fd >= 0 {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        }
        return fd
    }

    /// Waits for git; throws when it failed, quoting its first line of stderr.
    func finish(_ arguments: [String]) throws {
        let status = wait()
        defer { close(errors) }
        guard status == 0 else {
            lseek(errors, 0, SEEK_SET)
            let outcome = Git.Outcome(status: status, stdout: [], stderr: Terminal.readAll(errors))
            throw CommandFailure(
                .failure, "git \(arguments.first ?? "") failed: \(outcome.firstErrorLine)",
                hint: GitHistory.unreadableRepositoryHint)
        }
    }

    fileprivate static func spawn(
        _ arguments: [String], in directory: String, environment: [String: String],
        stdin: Int32?, stdout: Int32, stderr: Int32
    ) throws -> GitProcess {
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
        let envp = Git.environment(from: environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid = pid_t()
        let result = posix_spawnp(&pid, "git", &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw CommandFailure(
                .failure, "cannot run git: \(String(cString: strerror(result)))",
                hint: "install git (apt-get install git) and make sure it is on PATH")
        }
        return GitProcess(pid: pid, errors: -1)
    }

    /// Waits for git to end; its exit status (128 + N for signal N).
    func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }
}
