#ifndef VAULT_COPENSSL_SHIMS_H
#define VAULT_COPENSSL_SHIMS_H

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>
#include <openssl/rand.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/core_names.h>
#include <sys/prctl.h>

// MARK: macro wrappers

// OSSL_PARAM arrays are built from macros and need C-lifetime string keys:
// initialise an EVP_MAC_CTX for HMAC with SHA-256 as the digest.
static inline int vault_hmac_sha256_init(EVP_MAC_CTX *ctx,
                                         const unsigned char *key, size_t keylen) {
    OSSL_PARAM params[2];
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)"SHA256", 0);
    params[1] = OSSL_PARAM_construct_end();
    return EVP_MAC_init(ctx, key, keylen, params);
}

// prctl is variadic in glibc, which Swift cannot call.
static inline int vault_prctl_set_dumpable(int dumpable) {
    return prctl(PR_SET_DUMPABLE, (unsigned long)dumpable, 0UL, 0UL, 0UL);
}

#endif
