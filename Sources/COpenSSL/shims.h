#ifndef VAULT_COPENSSL_SHIMS_H
#define VAULT_COPENSSL_SHIMS_H

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>
#include <openssl/rand.h>
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

// OSSL_PARAM construction again: run HKDF-SHA256 (extract-and-expand) on an EVP_KDF_CTX.
static inline int vault_hkdf_sha256_derive(EVP_KDF_CTX *ctx,
                                           const unsigned char *ikm, size_t ikmlen,
                                           const unsigned char *salt, size_t saltlen,
                                           const unsigned char *info, size_t infolen,
                                           unsigned char *out, size_t outlen) {
    OSSL_PARAM params[6];
    size_t n = 0;
    params[n++] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)"SHA256", 0);
    params[n++] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_MODE, (char *)"EXTRACT_AND_EXPAND", 0);
    params[n++] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, (void *)ikm, ikmlen);
    params[n++] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)salt, saltlen);
    params[n++] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, (void *)info, infolen);
    params[n] = OSSL_PARAM_construct_end();
    return EVP_KDF_derive(ctx, out, outlen, params);
}

// prctl is variadic in glibc, which Swift cannot call.
static inline int vault_prctl_set_dumpable(int dumpable) {
    return prctl(PR_SET_DUMPABLE, (unsigned long)dumpable, 0UL, 0UL, 0UL);
}

#endif
