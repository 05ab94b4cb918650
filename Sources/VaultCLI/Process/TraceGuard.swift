#if canImport(Glibc)
import Glibc
#endif
internal import CTraceGuard

/// Keeps the command `vault run` starts from reaching other processes of the user through the
/// kernel's ptrace access (the login shell, which may hold the login keyring's session): vault
/// sets no-new-privs, enters a Landlock domain where the kernel has Landlock, and installs a
/// seccomp filter that fails ptrace, process_vm_readv/writev and pidfd_getfd, right before it
/// spawns the command, which inherits all three. vault itself needs none of these calls after.
enum TraceGuard {
    /// Why the guard could not be set: the call that failed and its errno.
    struct Failure: Error {
        var call: String
        var errno: Int32
    }

    /// Applies the guard to this thread and what it starts. Landlock missing is not a failure
    /// (the seccomp filter still holds); no-new-privs or seccomp failing is.
    static func enter() throws(Failure) {
        guard vault_set_no_new_privs() == 0 else { throw Failure(call: "prctl(PR_SET_NO_NEW_PRIVS)", errno: errno) }
        if vault_landlock_scope_tracing() != 0, errno != ENOSYS, errno != EOPNOTSUPP {
            throw Failure(call: "landlock_restrict_self", errno: errno)
        }
        guard vault_seccomp_deny_tracing() == 0 else { throw Failure(call: "prctl(PR_SET_SECCOMP)", errno: errno) }
    }
}
