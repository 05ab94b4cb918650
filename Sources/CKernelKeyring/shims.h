#ifndef VAULT_CKERNELKEYRING_SHIMS_H
#define VAULT_CKERNELKEYRING_SHIMS_H

// The kernel's key management calls, made directly (glibc's syscall), not through
// libkeyutils: the binary keeps needing only glibc and libcrypto. Each returns what the
// call returns, -1 with errno set on failure.

#include <stddef.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/keyctl.h>

// MARK: variadic wrappers

// syscall is variadic in glibc, which Swift cannot call.

static inline long vault_add_key(const char *type, const char *description, const void *payload, size_t length,
                                 int32_t keyring) {
    return syscall(SYS_add_key, type, description, payload, length, keyring);
}

static inline long vault_keyctl_get_keyring_id(int32_t keyring) {
    return syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, keyring, 0);
}

static inline long vault_keyctl_search(int32_t keyring, const char *type, const char *description) {
    return syscall(SYS_keyctl, KEYCTL_SEARCH, keyring, type, description, 0);
}

static inline long vault_keyctl_read(int32_t key, void *buffer, size_t length) {
    return syscall(SYS_keyctl, KEYCTL_READ, key, buffer, length);
}

static inline long vault_keyctl_setperm(int32_t key, uint32_t permissions) {
    return syscall(SYS_keyctl, KEYCTL_SETPERM, key, permissions);
}

static inline long vault_keyctl_set_timeout(int32_t key, unsigned int seconds) {
    return syscall(SYS_keyctl, KEYCTL_SET_TIMEOUT, key, seconds);
}

static inline long vault_keyctl_invalidate(int32_t key) {
    return syscall(SYS_keyctl, KEYCTL_INVALIDATE, key);
}

static inline long vault_keyctl_join_new_session_keyring(void) {
    return syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, (const char *)NULL);
}

#endif
