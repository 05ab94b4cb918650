#if canImport(Glibc)
import Glibc
#endif
import VaultCrypto

/// Where the child's standard streams go.
struct ChildStreams {
    /// The pseudo-terminal to open as the child's controlling terminal, in a
    /// new session, or nil to stay in vault's session and process group.
    var terminalPath: String?
    /// The child's stdin: nil keeps vault's own, else this fd (or the terminal when `stdinFromTerminal`).
    var stdinFromTerminal = false
    /// Without a terminal: the fd for the child's stdin, or nil for vault's own.
    var stdin: Int32?
    /// Start the child in a session of its own (setsid), so it outlives the
    /// terminal and the shell that ran vault.
    var newSession = false
    /// The write end for the child's stdout, or nil for the terminal.
    var stdout: Int32?
    /// The write end for the child's stderr, or nil for the terminal.
    var stderr: Int32?
}

/// The child of `vault run`, started with posix_spawnp (no fork of the Swift
/// runtime), its environment built from bytes so secrets never become Swift
/// strings, in one block of locked memory that is wiped once the child has its
/// copy (posix_spawnp returns after the child has run exec).
struct ChildProcess {
    let pid: pid_t

    /// Starts `argv` (found on PATH) with exactly `environment`, whose values
    /// are wiped as soon as they are copied into the locked block (pass the
    /// only copy, so the wipe reaches it). Fails with exit 127 when the command
    /// is not found and 126 when it cannot run.
    static func spawn(_ argv: [String], environment: inout [(name: String, value: [UInt8])], streams: ChildStreams) throws -> ChildProcess {
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
            if streams.newSession { flags |= 0x80 }  // POSIX_SPAWN_SETSID, as above
            if let fd = streams.stdin { posix_spawn_file_actions_adddup2(&actions, fd, 0) }
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
        defer { for pointer in arguments { free(pointer) } }
        let block = environmentBlock(environment)
        for index in environment.indices {
            environment[index].value.withUnsafeMutableBytes { if let base = $0.baseAddress { explicit_bzero(base, $0.count) } }
        }
        var pid = pid_t()
        let result = block.withUnsafeMutableBytes { raw in
            let base = raw.baseAddress!.assumingMemoryBound(to: CChar.self)
            var variables: [UnsafeMutablePointer<CChar>?] = []
            var offset = 0
            for (name, value) in environment {
                variables.append(base + offset)
                offset += name.utf8.count + 1 + value.count + 1
            }
            variables.append(nil)
            return posix_spawnp(&pid, argv[0], &actions, &attributes, arguments, variables)
        }
        guard result == 0 else {
            let reason = String(cString: strerror(result))
            if result == ENOENT {
                throw ChildExitStatus(
                    code: 127,
                    failure: CommandFailure(
                        .failure, "command not found: \(quoted(argv[0]))", hint: "check its name and PATH"))
            }
            throw ChildExitStatus(
                code: 126,
                failure: CommandFailure(
                    .failure, "cannot run \(quoted(argv[0])): \(reason)", hint: "check that it is an executable file"))
        }
        return ChildProcess(pid: pid)
    }

    /// "NAME=VALUE\0" for every variable, one after another, in locked memory.
    private static func environmentBlock(_ environment: [(name: String, value: [UInt8])]) -> SecretBytes {
        let block = SecretBytes(count: environment.reduce(0) { $0 + $1.name.utf8.count + 1 + $1.value.count + 1 })
        block.withUnsafeMutableBytes { raw in
            var offset = 0
            for (name, value) in environment {
                for part in [Array(name.utf8) + [UInt8(ascii: "=")], value] {
                    part.withUnsafeBytes {
                        if let source = $0.baseAddress { (raw.baseAddress! + offset).copyMemory(from: source, byteCount: $0.count) }
                    }
                    offset += part.count
                }
                offset += 1  // the NUL, already there: the block starts zeroed
            }
        }
        return block
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

    /// Waits for the child to end; its exit status (128 + N for signal N).
    func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    func send(_ signal: Int32) {
        kill(pid, signal)
    }
}
