import Foundation
import Testing

/// The command `vault run` starts cannot trace its way out: another process of the user that
/// lets any process attach (prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY), so Yama allows it on every
/// machine) is out of reach of ptrace, process_vm_readv and /proc/PID/mem from inside.
@Suite struct RunTraceGuardTests {
    /// A process of the user, as the login shell is: it allows any tracer, then waits.
    static let target = """
        import ctypes, os, sys, time
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(0x59616d61, ctypes.c_ulong(-1), 0, 0, 0)  # PR_SET_PTRACER, PR_SET_PTRACER_ANY (no Yama: EINVAL, attach allowed anyway)
        secret = ctypes.create_string_buffer(b"login-session-token-123")
        open(sys.argv[1], "w").write("%d %d\\n" % (os.getpid(), ctypes.addressof(secret)))
        time.sleep(120)
        """

    /// What the command under `vault run` tries against the target; prints one word per way in.
    static let attacker = """
        import ctypes, os, sys
        libc = ctypes.CDLL(None, use_errno=True)
        pid, address = map(int, open(sys.argv[1]).read().split())
        def word(ok): return "open" if ok else "refused:" + os.strerror(ctypes.get_errno())
        attached = libc.ptrace(16, pid, 0, 0) == 0  # PTRACE_ATTACH
        print("ptrace", word(attached))
        if attached:
            os.waitpid(pid, 0)
            libc.ptrace(17, pid, 0, 0)  # PTRACE_DETACH
        class iovec(ctypes.Structure): _fields_ = [("base", ctypes.c_void_p), ("length", ctypes.c_size_t)]
        buffer = ctypes.create_string_buffer(23)
        local, remote = iovec(ctypes.addressof(buffer), 23), iovec(address, 23)
        libc.process_vm_readv.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_ulong, ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong]
        read = libc.process_vm_readv(pid, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0) == 23 and buffer.raw.startswith(b"login-session")
        print("process_vm_readv", word(read))
        try:
            with open("/proc/%d/mem" % pid, "rb", buffering=0) as memory:
                memory.seek(address)
                print("mem", "open" if memory.read(23).startswith(b"login-session") else "refused:short")
        except OSError as error:
            print("mem", "refused:" + error.strerror)
        print("landlock", libc.syscall(444, None, 0, 1) > 0)
        """

    func attack(_ extra: [String]) throws -> [String: String] {
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        _ = try sandbox.vault(["add", "-s", "db", "-a", "app"], stdin: Array("db-secret-1".utf8))
        try sandbox.write("target.py", Array(Self.target.utf8))
        try sandbox.write("attacker.py", Array(Self.attacker.utf8))
        let vault = ([Sandbox.vaultBinary, "run", "--env", "T=vault://db/app"] + extra + ["--", "python3", "attacker.py", "target.pid"])
            .map { "'\($0)'" }.joined(separator: " ")
        let script = """
            python3 target.py target.pid.new & target=$!
            while [ ! -s target.pid.new ]; do sleep 0.05; done; mv target.pid.new target.pid
            \(vault); status=$?
            kill $target; exit $status
            """
        let result = try sandbox.run("/bin/sh", ["-c", script])
        #expect(result.status == 0, "\(result.stderr)")
        return Dictionary(
            result.stdoutText.split(separator: "\n").map { line in
                let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
                return (parts[0], parts.count > 1 ? parts[1] : "")
            }, uniquingKeysWith: { $1 })
    }

    @Test func theRunChildCannotReachAnotherProcessOfTheUser() throws {
        let ways = try attack([])
        #expect(ways["ptrace"]?.hasPrefix("refused") == true, "\(ways)")
        #expect(ways["process_vm_readv"]?.hasPrefix("refused") == true, "\(ways)")
        // /proc/PID/mem is an open(2), which no seccomp filter can tell: Landlock closes it where the kernel has it.
        if ways["landlock"] == "True" { #expect(ways["mem"]?.hasPrefix("refused") == true, "\(ways)") }
    }

    @Test func allowTraceLetsTheChildTraceAsBefore() throws {
        // The same machine lets a process of the user attach when vault does not stand in the way.
        let ways = try attack(["--allow-trace"])
        #expect(ways["ptrace"] == "open", "\(ways)")
        #expect(ways["process_vm_readv"] == "open", "\(ways)")
        #expect(ways["mem"] == "open", "\(ways)")
    }

    @Test func aSetuidProgramGainsNothingUnderTheGuard() throws {
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        let guarded = try sandbox.vault(["run", "--", "sh", "-c", "grep NoNewPrivs /proc/self/status"])
        #expect(guarded.stdoutText.contains("NoNewPrivs:\t1"), "\(guarded.stdoutText) \(guarded.stderr)")
        let unguarded = try sandbox.vault(["run", "--allow-trace", "--", "sh", "-c", "grep NoNewPrivs /proc/self/status"])
        #expect(unguarded.stdoutText.contains("NoNewPrivs:\t0"), "\(unguarded.stdoutText)")
    }
}
