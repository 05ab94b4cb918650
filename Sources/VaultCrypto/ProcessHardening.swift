#if canImport(Glibc)
import Glibc
#endif
internal import COpenSSL

/// Process-wide settings that keep secrets from leaking to disk.
package enum ProcessHardening {
    /// Turns core dumps off for this process: RLIMIT_CORE 0 and prctl(PR_SET_DUMPABLE, 0). Best effort, never throws.
    ///
    /// Not dumpable also stops other processes of the same user from ptrace-attaching or reading /proc/PID/mem.
    package static func disableCoreDumps() {
        var limit = rlimit(rlim_cur: 0, rlim_max: 0)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &limit)
        _ = vault_prctl_set_dumpable(0)
    }
}
