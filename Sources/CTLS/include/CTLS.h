// A TLS client over a connected socket through OpenSSL's libssl, loaded with
// dlopen("libssl.so.3") on first use: vault links libcrypto only, so commands
// that reach no server never map libssl. libssl is in the same Debian package
// as libcrypto (libssl3), so this adds no dependency. The types are libssl's own
// (openssl/ssl.h, libssl-dev), used only inside TLSClient.c.
#ifndef VAULT_CTLS_H
#define VAULT_CTLS_H

#include <stddef.h>
#include <sys/types.h>

/// Why a TLS step failed.
enum {
    VAULT_TLS_OK = 0,
    VAULT_TLS_LOAD = 1,       // libssl could not be loaded (reason: dlerror's words)
    VAULT_TLS_CA = 2,         // the CA file or directory could not be read
    VAULT_TLS_VERIFY = 3,     // the server's certificate did not verify (reason: OpenSSL's words)
    VAULT_TLS_HANDSHAKE = 4,  // the handshake failed otherwise (protocol, version, alert)
    VAULT_TLS_TIMEOUT = 5,    // the socket's receive or send timeout ran out
    VAULT_TLS_IO = 6,         // the connection failed (errno in `code`)
};

/// A TLS connection: opaque outside TLSClient.c.
typedef struct VaultTLS VaultTLS;

/// The outcome of a TLS step: `kind` from the enum above, `code` an errno for
/// VAULT_TLS_IO, and OpenSSL's or dlerror's words in `reason`.
typedef struct VaultTLSFailure {
    int kind;
    int code;
    char reason[256];
} VaultTLSFailure;

/// Starts TLS (1.2 or later) on the connected socket `fd` for `host`: SNI set to it (when it is a
/// name), the certificate verified against `cafile` or `capath` (NULL: the hashed directory
/// /etc/ssl/certs, looked up by subject hash, never the whole bundle) and against `host` (a name,
/// or an IP address in the certificate's IP SANs). The socket's timeouts bound every step.
/// Returns NULL with `failure` filled on any error; the caller still owns and closes `fd`.
VaultTLS *vault_tls_connect(int fd, const char *host, const char *cafile, const char *capath, VaultTLSFailure *failure);

/// Reads up to `size` bytes: the count, 0 at the end of the stream, or -1 with `failure` filled.
ssize_t vault_tls_read(VaultTLS *tls, void *buffer, size_t size, VaultTLSFailure *failure);

/// Writes all `size` bytes: 0, or -1 with `failure` filled.
int vault_tls_write(VaultTLS *tls, const void *buffer, size_t size, VaultTLSFailure *failure);

/// Frees the connection (no close_notify wait; the caller closes the socket).
void vault_tls_free(VaultTLS *tls);

#endif
