#ifndef VAULT_COPENSSL_SHIMS_H
#define VAULT_COPENSSL_SHIMS_H

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>
#include <openssl/rand.h>
#include <openssl/err.h>

#endif
