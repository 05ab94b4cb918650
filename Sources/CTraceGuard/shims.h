#ifndef VAULT_CTRACEGUARD_SHIMS_H
#define VAULT_CTRACEGUARD_SHIMS_H

// What keeps the child of `vault run` from reaching other processes of the user by ptrace
// (docs/RUN.md, "What the child cannot trace"). Each applies to the calling thread and is
// inherited by every process it starts; none can be undone. Each returns 0, or -1 with errno set.

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

// MARK: variadic wrappers

// prctl and syscall are variadic in glibc, which Swift cannot call.

// No setuid or file-capability program gains privileges from here on; what seccomp and
// Landlock require of a process without CAP_SYS_ADMIN.
static inline int vault_set_no_new_privs(void) {
    return prctl(PR_SET_NO_NEW_PRIVS, 1UL, 0UL, 0UL, 0UL);
}

// A Landlock domain (ABI 1 and later): a process inside it cannot ptrace, read /proc/PID/mem of,
// or take descriptors (pidfd_getfd) from a process outside it, since every such access passes the
// kernel's ptrace access check, which Landlock scopes. The ruleset handles only the making of
// block devices (which needs root anyway), so no file access changes. -1 with ENOSYS or
// EOPNOTSUPP where the kernel has no Landlock.
static inline int vault_landlock_scope_tracing(void) {
    struct { uint64_t handled_access_fs; } attributes = { 1ULL << 11 };  // LANDLOCK_ACCESS_FS_MAKE_BLOCK
    long ruleset = syscall(444, &attributes, sizeof(attributes), 0);      // landlock_create_ruleset
    if (ruleset < 0) return -1;
    long result = syscall(446, (int)ruleset, 0);                         // landlock_restrict_self
    int saved = errno;
    close((int)ruleset);
    errno = saved;
    return result < 0 ? -1 : 0;
}

// MARK: the seccomp filter

#define VAULT_DENY(number) \
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (number), 0, 1), BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM)

// A seccomp filter that fails ptrace, process_vm_readv, process_vm_writev and pidfd_getfd with
// EPERM, for the native system call table and (on x86_64) the i386 one; x32 calls and other
// architectures' tables fail whole, so no table is a way around it. Needs no-new-privs first.
static inline int vault_seccomp_deny_tracing(void) {
#if defined(__x86_64__)
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 0, 12),  // else to the i386 check
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1),  // x32
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
        VAULT_DENY(101), VAULT_DENY(310), VAULT_DENY(311), VAULT_DENY(438),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    // The jump over the x86_64 part lands on the i386 check below.
    struct sock_filter compat[] = {
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_I386, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        VAULT_DENY(26), VAULT_DENY(347), VAULT_DENY(348), VAULT_DENY(438),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_filter program[sizeof(filter) / sizeof(filter[0]) + sizeof(compat) / sizeof(compat[0])];
    size_t count = 0;
    for (size_t i = 0; i < sizeof(filter) / sizeof(filter[0]); i++) program[count++] = filter[i];
    for (size_t i = 0; i < sizeof(compat) / sizeof(compat[0]); i++) program[count++] = compat[i];
#elif defined(__aarch64__)
    struct sock_filter program[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_AARCH64, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        VAULT_DENY(117), VAULT_DENY(270), VAULT_DENY(271), VAULT_DENY(438),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    size_t count = sizeof(program) / sizeof(program[0]);
#else
    errno = ENOSYS;
    return -1;
#endif
    struct sock_fprog fprog = { (unsigned short)count, program };
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog, 0UL, 0UL);
}

#undef VAULT_DENY

#endif
