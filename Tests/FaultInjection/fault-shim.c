/*
 * fault-shim.c: an LD_PRELOAD library that makes the Nth counted system call
 * of a vault process fail (issue #37's fault-injection suite,
 * Tests/VaultCLITests/Reliability/FaultInjectionTests.swift).
 *
 * Debian's libfiu wraps open, write, fsync and rename but not openat, link,
 * mkdir, flock or sendfile, which vault calls; this wraps every libc entry
 * point vault's write paths reach (checked with nm -D on the binary and with
 * FAULT_LOG: a call set that counts nothing is a defect of the suite).
 *
 * Built by the suite with `cc -shared -fPIC -O2 -o fault-shim.so fault-shim.c -ldl`.
 * Environment:
 *   FAULT_DIRS   colon-separated directories: only calls on paths under them
 *                count (for a descriptor, the path /proc/self/fd names), so N
 *                stays bounded by what the command writes, not by what the
 *                Swift runtime opens. Required; nothing counts without it.
 *   FAULT_CALLS  comma-separated call names to count (default: all below).
 *   FAULT_N      the counted call that fails (1-based); 0 or unset: none fails.
 *   FAULT_MODE   "once" (only the Nth fails) or "from" (the Nth and every later one).
 *   FAULT_ERRNO  EIO (default), ENOSPC, EDQUOT, EACCES, EROFS or a number.
 *   FAULT_LOG    a file each counted call is appended to: "N name path [FAILED]".
 * Only a process whose executable is named `vault` counts: git and the
 * shells a command runs inherit LD_PRELOAD but are left alone.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static int active = -1;           /* -1: not yet set up */
static char dirs[16][4096];
static int dir_count;
static char calls[1024];
static long fail_at;
static int fail_from;
static int fail_errno = EIO;
static char log_path[4096];
static long counter;

static void setup(void) {
    if (active >= 0) return;
    active = 0;
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return;
    exe[n] = 0;
    const char *base = strrchr(exe, '/');
    base = base ? base + 1 : exe;
    if (strcmp(base, "vault") != 0) return;
    const char *d = getenv("FAULT_DIRS");
    if (!d || !*d) return;
    char copy[8192];
    snprintf(copy, sizeof copy, "%s", d);
    for (char *save = NULL, *p = strtok_r(copy, ":", &save); p && dir_count < 16; p = strtok_r(NULL, ":", &save)) {
        snprintf(dirs[dir_count++], sizeof dirs[0], "%s", p);
    }
    const char *c = getenv("FAULT_CALLS");
    snprintf(calls, sizeof calls, ",%s,", c && *c ? c : "all");
    const char *v = getenv("FAULT_N");
    fail_at = v ? atol(v) : 0;
    v = getenv("FAULT_MODE");
    fail_from = v && strcmp(v, "from") == 0;
    v = getenv("FAULT_ERRNO");
    if (v) {
        if (!strcmp(v, "EIO")) fail_errno = EIO;
        else if (!strcmp(v, "ENOSPC")) fail_errno = ENOSPC;
        else if (!strcmp(v, "EDQUOT")) fail_errno = EDQUOT;
        else if (!strcmp(v, "EACCES")) fail_errno = EACCES;
        else if (!strcmp(v, "EROFS")) fail_errno = EROFS;
        else if (atoi(v) > 0) fail_errno = atoi(v);
    }
    v = getenv("FAULT_LOG");
    if (v) snprintf(log_path, sizeof log_path, "%s", v);
    active = 1;
}

static int wanted(const char *name) {
    if (strstr(calls, ",all,")) return 1;
    char key[64];
    snprintf(key, sizeof key, ",%s,", name);
    return strstr(calls, key) != NULL;
}

static int under_dirs(const char *path) {
    if (!path) return 0;
    for (int i = 0; i < dir_count; i++) {
        size_t len = strlen(dirs[i]);
        if (strncmp(path, dirs[i], len) == 0 && (path[len] == '/' || path[len] == 0)) return 1;
    }
    return 0;
}

/* An absolute path for `path` relative to `dirfd` (AT_FDCWD: the working directory). */
static void resolve_at(int dirfd, const char *path, char *out, size_t size) {
    if (!path) { out[0] = 0; return; }
    if (path[0] == '/') { snprintf(out, size, "%s", path); return; }
    char base[4096];
    if (dirfd == AT_FDCWD) {
        if (!getcwd(base, sizeof base)) base[0] = 0;
    } else {
        char link[64];
        snprintf(link, sizeof link, "/proc/self/fd/%d", dirfd);
        ssize_t n = readlink(link, base, sizeof base - 1);
        base[n > 0 ? n : 0] = 0;
    }
    snprintf(out, size, "%s/%s", base, path);
}

static void fd_path(int fd, char *out, size_t size) {
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, out, size - 1);
    out[n > 0 ? n : 0] = 0;
}

static void log_call(long n, const char *name, const char *path, int failed) {
    if (!log_path[0]) return;
    int (*real_open)(const char *, int, ...) = dlsym(RTLD_NEXT, "open");
    ssize_t (*real_write)(int, const void *, size_t) = dlsym(RTLD_NEXT, "write");
    int (*real_close)(int) = dlsym(RTLD_NEXT, "close");
    int fd = real_open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0) return;
    char line[8192];
    int len = snprintf(line, sizeof line, "%ld %s %s%s\n", n, name, path, failed ? " FAILED" : "");
    if (len > 0) real_write(fd, line, (size_t)len < sizeof line ? (size_t)len : sizeof line - 1);
    real_close(fd);
}

/* Whether this call (counted if it is on a watched path) fails; sets errno when it does. */
static int inject(const char *name, const char *path) {
    setup();
    if (active != 1 || !wanted(name) || !under_dirs(path)) return 0;
    long n = __atomic_add_fetch(&counter, 1, __ATOMIC_SEQ_CST);
    int fail = fail_at > 0 && (n == fail_at || (fail_from && n > fail_at));
    log_call(n, name, path, fail);
    return fail;
}

static int inject_fd(const char *name, int fd) {
    setup();
    if (active != 1 || !wanted(name)) return 0;
    char path[4096];
    fd_path(fd, path, sizeof path);
    return inject(name, path);
}

static int inject_at(const char *name, int dirfd, const char *relative) {
    setup();
    if (active != 1 || !wanted(name)) return 0;
    char path[8192];
    resolve_at(dirfd, relative, path, sizeof path);
    return inject(name, path);
}

#define REAL(type, name, ...) static type (*real)(__VA_ARGS__); if (!real) real = dlsym(RTLD_NEXT, #name)
#define FAIL(value) do { errno = fail_errno; return value; } while (0)

static mode_t mode_arg(int flags, va_list ap) {
    return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(ap, int) : 0;
}

int open(const char *path, int flags, ...) {
    va_list ap; va_start(ap, flags); mode_t mode = mode_arg(flags, ap); va_end(ap);
    REAL(int, open, const char *, int, ...);
    if (inject_at("openat", AT_FDCWD, path)) FAIL(-1);
    return real(path, flags, mode);
}
int open64(const char *path, int flags, ...) {
    va_list ap; va_start(ap, flags); mode_t mode = mode_arg(flags, ap); va_end(ap);
    REAL(int, open64, const char *, int, ...);
    if (inject_at("openat", AT_FDCWD, path)) FAIL(-1);
    return real(path, flags, mode);
}
int openat(int dirfd, const char *path, int flags, ...) {
    va_list ap; va_start(ap, flags); mode_t mode = mode_arg(flags, ap); va_end(ap);
    REAL(int, openat, int, const char *, int, ...);
    if (inject_at("openat", dirfd, path)) FAIL(-1);
    return real(dirfd, path, flags, mode);
}
int openat64(int dirfd, const char *path, int flags, ...) {
    va_list ap; va_start(ap, flags); mode_t mode = mode_arg(flags, ap); va_end(ap);
    REAL(int, openat64, int, const char *, int, ...);
    if (inject_at("openat", dirfd, path)) FAIL(-1);
    return real(dirfd, path, flags, mode);
}
int creat(const char *path, mode_t mode) {
    REAL(int, creat, const char *, mode_t);
    if (inject_at("openat", AT_FDCWD, path)) FAIL(-1);
    return real(path, mode);
}
ssize_t write(int fd, const void *buf, size_t count) {
    REAL(ssize_t, write, int, const void *, size_t);
    if (inject_fd("write", fd)) FAIL(-1);
    return real(fd, buf, count);
}
ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset) {
    REAL(ssize_t, pwrite, int, const void *, size_t, off_t);
    if (inject_fd("write", fd)) FAIL(-1);
    return real(fd, buf, count, offset);
}
ssize_t pwrite64(int fd, const void *buf, size_t count, off_t offset) {
    REAL(ssize_t, pwrite64, int, const void *, size_t, off_t);
    if (inject_fd("write", fd)) FAIL(-1);
    return real(fd, buf, count, offset);
}
ssize_t writev(int fd, const struct iovec *iov, int count) {
    REAL(ssize_t, writev, int, const struct iovec *, int);
    if (inject_fd("write", fd)) FAIL(-1);
    return real(fd, iov, count);
}
int fsync(int fd) {
    REAL(int, fsync, int);
    if (inject_fd("fsync", fd)) FAIL(-1);
    return real(fd);
}
int fdatasync(int fd) {
    REAL(int, fdatasync, int);
    if (inject_fd("fdatasync", fd)) FAIL(-1);
    return real(fd);
}
int ftruncate(int fd, off_t length) {
    REAL(int, ftruncate, int, off_t);
    if (inject_fd("ftruncate", fd)) FAIL(-1);
    return real(fd, length);
}
int close(int fd) {
    REAL(int, close, int);
    /* close releases the descriptor even when it reports an error (Linux): do the same. */
    int fail = inject_fd("close", fd);
    int result = real(fd);
    if (fail) FAIL(-1);
    return result;
}
int rename(const char *from, const char *to) {
    REAL(int, rename, const char *, const char *);
    if (inject_at("rename", AT_FDCWD, to)) FAIL(-1);
    return real(from, to);
}
int renameat(int fromfd, const char *from, int tofd, const char *to) {
    REAL(int, renameat, int, const char *, int, const char *);
    if (inject_at("rename", tofd, to)) FAIL(-1);
    return real(fromfd, from, tofd, to);
}
int renameat2(int fromfd, const char *from, int tofd, const char *to, unsigned int flags) {
    REAL(int, renameat2, int, const char *, int, const char *, unsigned int);
    if (inject_at("rename", tofd, to)) FAIL(-1);
    return real(fromfd, from, tofd, to, flags);
}
int link(const char *from, const char *to) {
    REAL(int, link, const char *, const char *);
    if (inject_at("link", AT_FDCWD, to)) FAIL(-1);
    return real(from, to);
}
int linkat(int fromfd, const char *from, int tofd, const char *to, int flags) {
    REAL(int, linkat, int, const char *, int, const char *, int);
    if (inject_at("link", tofd, to)) FAIL(-1);
    return real(fromfd, from, tofd, to, flags);
}
int unlink(const char *path) {
    REAL(int, unlink, const char *);
    if (inject_at("unlink", AT_FDCWD, path)) FAIL(-1);
    return real(path);
}
int unlinkat(int dirfd, const char *path, int flags) {
    REAL(int, unlinkat, int, const char *, int);
    if (inject_at("unlink", dirfd, path)) FAIL(-1);
    return real(dirfd, path, flags);
}
int rmdir(const char *path) {
    REAL(int, rmdir, const char *);
    if (inject_at("unlink", AT_FDCWD, path)) FAIL(-1);
    return real(path);
}
int mkdir(const char *path, mode_t mode) {
    REAL(int, mkdir, const char *, mode_t);
    if (inject_at("mkdir", AT_FDCWD, path)) FAIL(-1);
    return real(path, mode);
}
int mkdirat(int dirfd, const char *path, mode_t mode) {
    REAL(int, mkdirat, int, const char *, mode_t);
    if (inject_at("mkdir", dirfd, path)) FAIL(-1);
    return real(dirfd, path, mode);
}
int flock(int fd, int operation) {
    REAL(int, flock, int, int);
    /* Unlocking is not a fault point: a failed LOCK_UN changes nothing the test can see. */
    if (!(operation & LOCK_UN) && inject_fd("flock", fd)) FAIL(-1);
    return real(fd, operation);
}
ssize_t sendfile(int out, int in, off_t *offset, size_t count) {
    REAL(ssize_t, sendfile, int, int, off_t *, size_t);
    if (inject_fd("sendfile", out)) FAIL(-1);
    return real(out, in, offset, count);
}
ssize_t sendfile64(int out, int in, off_t *offset, size_t count) {
    REAL(ssize_t, sendfile64, int, int, off_t *, size_t);
    if (inject_fd("sendfile", out)) FAIL(-1);
    return real(out, in, offset, count);
}
ssize_t copy_file_range(int in, off_t *inoff, int out, off_t *outoff, size_t count, unsigned int flags) {
    REAL(ssize_t, copy_file_range, int, off_t *, int, off_t *, size_t, unsigned int);
    if (inject_fd("sendfile", out)) FAIL(-1);
    return real(in, inoff, out, outoff, count, flags);
}
