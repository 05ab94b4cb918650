// libssl through dlopen: see CTLS.h. The functions of libcrypto used here
// (errors, verify parameters) are linked already through VaultCrypto.
#include "CTLS.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VAULT_LIBSSL_FUNCTIONS(X) \
    X(TLS_client_method) X(SSL_CTX_new) X(SSL_CTX_free) X(SSL_CTX_ctrl) X(SSL_CTX_set_verify) \
    X(SSL_CTX_load_verify_locations) X(SSL_new) X(SSL_free) X(SSL_set_fd) X(SSL_ctrl) X(SSL_get0_param) \
    X(SSL_connect) X(SSL_read) X(SSL_write) X(SSL_get_error) X(SSL_get_verify_result)

static struct {
#define VAULT_DECLARE(name) __typeof__(name) *name;
    VAULT_LIBSSL_FUNCTIONS(VAULT_DECLARE)
#undef VAULT_DECLARE
} ssl;
static int sslLoaded;

struct VaultTLS {
    SSL_CTX *context;
    SSL *connection;
};

static void fail(VaultTLSFailure *failure, int kind, int code, const char *reason) {
    failure->kind = kind;
    failure->code = code;
    snprintf(failure->reason, sizeof failure->reason, "%s", reason ? reason : "");
}

/// The oldest error on OpenSSL's queue as words, then the queue emptied.
static void failWithQueue(VaultTLSFailure *failure, int kind) {
    unsigned long error = ERR_get_error();
    char words[200] = "";
    if (error != 0) ERR_error_string_n(error, words, sizeof words);
    ERR_clear_error();
    fail(failure, kind, 0, words);
}

static int load(VaultTLSFailure *failure) {
    if (sslLoaded) return 1;
    void *handle = dlopen("libssl.so.3", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        fail(failure, VAULT_TLS_LOAD, 0, dlerror());
        return 0;
    }
    void *symbol;
#define VAULT_RESOLVE(name) \
    symbol = dlsym(handle, #name); \
    if (symbol == NULL) { fail(failure, VAULT_TLS_LOAD, 0, "libssl.so.3 has no function " #name); return 0; } \
    memcpy(&ssl.name, &symbol, sizeof symbol);
    VAULT_LIBSSL_FUNCTIONS(VAULT_RESOLVE)
#undef VAULT_RESOLVE
    sslLoaded = 1;
    return 1;
}

/// A failed read, write or handshake: a timeout (the socket's SO_RCVTIMEO/SO_SNDTIMEO ran out),
/// the socket's own error, a certificate that did not verify, or another TLS failure.
static void failStep(VaultTLS *tls, int result, VaultTLSFailure *failure) {
    int saved = errno;
    int reason = ssl.SSL_get_error(tls->connection, result);
    if (reason == SSL_ERROR_SYSCALL || reason == SSL_ERROR_WANT_READ || reason == SSL_ERROR_WANT_WRITE) {
        ERR_clear_error();
        if (saved == EAGAIN || saved == EWOULDBLOCK) fail(failure, VAULT_TLS_TIMEOUT, saved, "");
        else fail(failure, VAULT_TLS_IO, saved == 0 ? ECONNRESET : saved, "");
        return;
    }
    long verified = ssl.SSL_get_verify_result(tls->connection);
    if (verified != X509_V_OK) {
        ERR_clear_error();
        fail(failure, VAULT_TLS_VERIFY, (int)verified, X509_verify_cert_error_string(verified));
        return;
    }
    failWithQueue(failure, VAULT_TLS_HANDSHAKE);
}

VaultTLS *vault_tls_connect(int fd, const char *host, const char *cafile, const char *capath, VaultTLSFailure *failure) {
    fail(failure, VAULT_TLS_OK, 0, "");
    if (!load(failure)) return NULL;
    VaultTLS *tls = calloc(1, sizeof *tls);
    if (tls == NULL) { fail(failure, VAULT_TLS_IO, ENOMEM, ""); return NULL; }
    tls->context = ssl.SSL_CTX_new(ssl.TLS_client_method());
    if (tls->context == NULL) { failWithQueue(failure, VAULT_TLS_HANDSHAKE); vault_tls_free(tls); return NULL; }
    // SSL_CTX_set_min_proto_version is a macro over SSL_CTX_ctrl.
    ssl.SSL_CTX_ctrl(tls->context, SSL_CTRL_SET_MIN_PROTO_VERSION, TLS1_2_VERSION, NULL);
    ssl.SSL_CTX_set_verify(tls->context, SSL_VERIFY_PEER, NULL);
    // A directory is looked up by subject hash when a certificate needs it: nothing is parsed now.
    const char *directory = (cafile == NULL && capath == NULL) ? "/etc/ssl/certs" : capath;
    if (ssl.SSL_CTX_load_verify_locations(tls->context, cafile, directory) != 1) {
        failWithQueue(failure, VAULT_TLS_CA);
        vault_tls_free(tls);
        return NULL;
    }
    tls->connection = ssl.SSL_new(tls->context);
    if (tls->connection == NULL || ssl.SSL_set_fd(tls->connection, fd) != 1) {
        failWithQueue(failure, VAULT_TLS_HANDSHAKE);
        vault_tls_free(tls);
        return NULL;
    }
    unsigned char address[16];
    int isAddress = inet_pton(AF_INET, host, address) == 1 || inet_pton(AF_INET6, host, address) == 1;
    X509_VERIFY_PARAM *parameters = ssl.SSL_get0_param(tls->connection);
    int named = isAddress ? X509_VERIFY_PARAM_set1_ip_asc(parameters, host)
                          : X509_VERIFY_PARAM_set1_host(parameters, host, 0);
    // SNI carries names only (RFC 6066); SSL_set_tlsext_host_name is a macro over SSL_ctrl.
    if (named != 1 || (!isAddress && ssl.SSL_ctrl(tls->connection, SSL_CTRL_SET_TLSEXT_HOSTNAME,
                                                  TLSEXT_NAMETYPE_host_name, (void *)host) != 1)) {
        failWithQueue(failure, VAULT_TLS_HANDSHAKE);
        vault_tls_free(tls);
        return NULL;
    }
    X509_VERIFY_PARAM_set_hostflags(parameters, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
    ERR_clear_error();
    errno = 0;
    int result = ssl.SSL_connect(tls->connection);
    if (result != 1) {
        failStep(tls, result, failure);
        vault_tls_free(tls);
        return NULL;
    }
    return tls;
}

ssize_t vault_tls_read(VaultTLS *tls, void *buffer, size_t size, VaultTLSFailure *failure) {
    ERR_clear_error();
    errno = 0;
    int count = ssl.SSL_read(tls->connection, buffer, size > 1 << 30 ? 1 << 30 : (int)size);
    if (count > 0) return count;
    int reason = ssl.SSL_get_error(tls->connection, count);
    if (reason == SSL_ERROR_ZERO_RETURN) return 0;
    failStep(tls, count, failure);
    return -1;
}

int vault_tls_write(VaultTLS *tls, const void *buffer, size_t size, VaultTLSFailure *failure) {
    const unsigned char *bytes = buffer;
    while (size > 0) {
        ERR_clear_error();
        errno = 0;
        int count = ssl.SSL_write(tls->connection, bytes, size > 1 << 30 ? 1 << 30 : (int)size);
        if (count <= 0) { failStep(tls, count, failure); return -1; }
        bytes += count;
        size -= (size_t)count;
    }
    return 0;
}

void vault_tls_free(VaultTLS *tls) {
    if (tls == NULL) return;
    if (tls->connection != NULL) ssl.SSL_free(tls->connection);
    if (tls->context != NULL) ssl.SSL_CTX_free(tls->context);
    free(tls);
}
