#if canImport(Glibc)
import Glibc
#endif

/// Where the child's standard streams go.
struct ChildStreams {
    /// The pseudo-terminal to open as the child's controlling terminal, in a
    /// new session, or nil to stay in vault's session and process group.
    var terminalPath: String?
    /// The child's stdin: nil keeps vault's own, else this fd (or the terminal when `stdinFromTerminal`).
    var stdinFromTerminal = false
    /// The write end for the child's stdout, or nil for the terminal.
    var stdout: Int32?
    /// The write end for the child's stderr, or nil for the terminal.
    var stderr: Int32?
}

/// The child of `vault run`, started with posix_spawnp (no fork of the Swift
/// runtime), its environment built from bytes so secrets never become Swift
/// strings, and those bytes wiped once the child has its copy.
struct ChildProcess {
    let pid: pid_t

    /// Starts `argv` (found on PATH) with exactly `environment`. Fails with
    /// exit 127 when the command is not found and 126 when it cannot run.
    static func spawn(_ argv: [String], environment: [(name: String, value: [UInt8])], streams: ChildStreams) throws -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if let path = streams.terminalPath {
            // A session leader that opens a terminal without O_NOCTTY makes it
            // its controlling terminal: the child's ^C, job control and /dev/tty work.
            flags |= 0x80  // POSIX_SPAWN_SETSID, declared only with _GNU_SOURCE
            posix_spawn_file_actions_addopen(&actions, 3, path, O_RDWR, 0)
            if streams.stdinFromTerminal { posix_spawn_file_actions_adddup2(&actions, 3, 0) }
            posix_spawn_file_actions_adddup2(&actions, streams.stdout ?? 3, 1)
            posix_spawn_file_actions_adddup2(&actions, streams.stderr ?? 3, 2)
            posix_spawn_file_actions_addclose(&actions, 3)
        } else {
            if let fd = streams.stdout { posix_spawn_file_actions_adddup2(&actions, fd, 1) }
            if let fd = streams.stderr { posix_spawn_file_actions_adddup2(&actions, fd, 2) }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noneBlocked = sigset_t()
        sigemptyset(&noneBlocked)
        posix_spawnattr_setsigmask(&attributes, &noneBlocked)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in SignalRelay.forwarded + [SIGPIPE, SIGCHLD, SIGWINCH] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let arguments = argv.map { strdup($0) } + [nil]
        let variables = environment.map { cString($0.name, $0.value) } + [nil]
        defer {
            for pointer in arguments { free(pointer) }
            for case let pointer? in variables {
                explicit_bzero(pointer, strlen(pointer))
                free(pointer)
            }
        }
        var pid = pid_t()
        let result = posix_spawnp(&pid, argv[0], &actions, &attributes, arguments, variables)
        guard result == 0 else {
            let reason = String(cString: strerror(result))
            if result == ENOENT {
                throw ChildExitStatus(code: 127, failure: CommandFailure(
                    .failure, "command not found: \(quoted(argv[0]))", hint: "check its name and PATH"))
            }
            throw ChildExitStatus(code: 126, failure: CommandFailure(
                .failure, "cannot run \(quoted(argv[0])): \(reason)", hint: "check that it is an executable file"))
        }
        return ChildProcess(pid: pid)
    }

    /// "NAME=VALUE\0" in malloc'd memory.
    private static func cString(_ name: String, _ value: [UInt8]) -> UnsafeMutablePointer<CChar>? {
        let bytes = Array(name.utf8) + [UInt8(ascii: "=")]
        let pointer = malloc(bytes.count + value.count + 1)!.assumingMemoryBound(to: CChar.self)
        let raw = UnsafeMutableRawPointer(pointer)
        bytes.withUnsafeBytes { raw.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        value.withUnsafeBytes { if let base = $0.baseAddress { (raw + bytes.count).copyMemory(from: base, byteCount: $0.count) } }
        pointer[bytes.count + value.count] = 0
        return pointer
    }

    /// The exit status if the child has ended (128 + N for signal N), without waiting.
    func poll() -> Int32? {
        var status: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &status, WNOHANG) } while result < 0 && errno == EINTR
        guard result == pid else { return nil }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    func send(_ signal: Int32) {
        kill(pid, signal)
    }
}
