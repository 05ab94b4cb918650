// Sealing and unsealing a 32-byte key with a TPM 2.0 through tpm2-tss's ESAPI,
// loaded with dlopen("libtss2-esys.so.0") and dlopen("libtss2-tctildr.so.0")
// at run time: vault has no link-time dependency on tpm2-tss, so it runs
// where it is not installed and says why the TPM is not available.
// TPMSeal.c takes every ESAPI type from tpm2-tss's own headers (libtss2-dev).
#ifndef VAULT_CTPM_H
#define VAULT_CTPM_H

#include <stddef.h>
#include <stdint.h>

/// Where a seal or unseal stopped: the step names the failing call, `code` is
/// its TSS2_RC (0 when the step failed before reaching the TPM).
typedef struct VaultTPMFailure {
    int step;
    uint32_t code;
} VaultTPMFailure;

enum {
    VAULT_TPM_STEP_NONE = 0,
    VAULT_TPM_STEP_CONNECT = 1,      // Tss2_TctiLdr_Initialize, Esys_Initialize
    VAULT_TPM_STEP_PRIMARY = 2,      // Esys_CreatePrimary of the storage primary
    VAULT_TPM_STEP_SESSION = 3,      // Esys_StartAuthSession, the policy commands
    VAULT_TPM_STEP_CREATE = 4,       // Esys_Create of the sealed object
    VAULT_TPM_STEP_LOAD = 5,         // Esys_Load of the sealed object
    VAULT_TPM_STEP_UNSEAL = 6,       // Esys_Unseal
    VAULT_TPM_STEP_BLOB = 7,         // marshalling or unmarshalling the sealed blob
};

/// The largest sealed blob (a TPM2B_PUBLIC and a TPM2B_PRIVATE, marshalled).
#define VAULT_TPM_BLOB_MAX 1024
/// The largest secret sealed (TPM2B_SENSITIVE_DATA holds 128 bytes).
#define VAULT_TPM_SECRET_MAX 128
/// The largest PIN (a sha256 TPM2B_AUTH).
#define VAULT_TPM_PIN_MAX 32

/// Loads tpm2-tss from the two sonames (once per process). Returns 0, or -1
/// with dlerror's words in `reason`.
int vault_tpm_load(const char *esys, const char *tctildr, char *reason, size_t reason_size);

/// Seals `secret` under the owner hierarchy's ECC P-256 storage primary with a
/// policy of PolicyPCR over `pcrs` (sha256 bank, their values now; no PolicyPCR
/// when `pcr_count` is 0) and, when
/// `pin_size` > 0, PolicyAuthValue with `pin` as the object's auth value.
/// Writes the marshalled public and private parts to `blob`. Returns 0, or -1
/// with `failure` filled. Every transient object and session is flushed.
int vault_tpm_seal(const char *tcti, const uint8_t *pcrs, size_t pcr_count, const uint8_t *pin, size_t pin_size,
                   const uint8_t *secret, size_t secret_size, uint8_t *blob, size_t *blob_size, VaultTPMFailure *failure);

/// Unseals what `vault_tpm_seal` sealed, satisfying the same policy, into
/// `secret` (at least VAULT_TPM_SECRET_MAX bytes). Returns 0, or -1 with `failure` filled.
int vault_tpm_unseal(const char *tcti, const uint8_t *pcrs, size_t pcr_count, const uint8_t *pin, size_t pin_size,
                     const uint8_t *blob, size_t blob_size, uint8_t *secret, size_t *secret_size, VaultTPMFailure *failure);

#endif
