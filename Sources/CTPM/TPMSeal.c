// Seals and unseals a key with tpm2-tss's ESAPI, every function resolved with
// dlsym: tpm2-tss's headers (libtss2-dev) give the types, and each pointer is
// declared with the __typeof__ of the header's own declaration, so a signature
// that differs from the header does not compile. The calls follow tpm2-tools'
// tpm2_createprimary / tpm2_create / tpm2_unseal and systemd's tpm2-util.c.
#include "CTPM.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <tss2/tss2_esys.h>
#include <tss2/tss2_mu.h>
#include <tss2/tss2_tctildr.h>

#define VAULT_TPM_FUNCTIONS(X) \
    X(Esys_Initialize) X(Esys_Finalize) X(Esys_Free) X(Esys_TR_SetAuth) X(Esys_TRSess_SetAttributes) \
    X(Esys_CreatePrimary) X(Esys_Create) X(Esys_Load) X(Esys_Unseal) X(Esys_FlushContext) \
    X(Esys_StartAuthSession) X(Esys_PolicyPCR) X(Esys_PolicyAuthValue) X(Esys_PolicyGetDigest) \
    X(Tss2_MU_TPM2B_PUBLIC_Marshal) X(Tss2_MU_TPM2B_PUBLIC_Unmarshal) \
    X(Tss2_MU_TPM2B_PRIVATE_Marshal) X(Tss2_MU_TPM2B_PRIVATE_Unmarshal)

static struct {
#define VAULT_TPM_POINTER(name) __typeof__(&name) name;
    VAULT_TPM_FUNCTIONS(VAULT_TPM_POINTER)
    __typeof__(&Tss2_TctiLdr_Initialize) Tss2_TctiLdr_Initialize;
    __typeof__(&Tss2_TctiLdr_Finalize) Tss2_TctiLdr_Finalize;
} tss;
static int isLoaded;

static int resolve(void *handle, const char *name, void **slot, const char *library, char *reason, size_t reason_size) {
    void *symbol = dlsym(handle, name);
    if (symbol == NULL) {
        snprintf(reason, reason_size, "%s has no function %s", library, name);
        return -1;
    }
    *slot = symbol;
    return 0;
}

int vault_tpm_load(const char *esys, const char *tctildr, char *reason, size_t reason_size) {
    if (isLoaded) return 0;
    void *esysHandle = dlopen(esys, RTLD_NOW | RTLD_LOCAL);
    if (esysHandle == NULL) {
        snprintf(reason, reason_size, "%s", dlerror());
        return -1;
    }
    void *tctiHandle = dlopen(tctildr, RTLD_NOW | RTLD_LOCAL);
    if (tctiHandle == NULL) {
        snprintf(reason, reason_size, "%s", dlerror());
        dlclose(esysHandle);
        return -1;
    }
    // dlsym on libtss2-esys also searches the libraries it loaded (libtss2-mu).
#define VAULT_TPM_RESOLVE(name) \
    if (resolve(esysHandle, #name, (void **)&tss.name, esys, reason, reason_size) != 0) goto missing;
    VAULT_TPM_FUNCTIONS(VAULT_TPM_RESOLVE)
    if (resolve(tctiHandle, "Tss2_TctiLdr_Initialize", (void **)&tss.Tss2_TctiLdr_Initialize, tctildr, reason, reason_size) != 0 ||
        resolve(tctiHandle, "Tss2_TctiLdr_Finalize", (void **)&tss.Tss2_TctiLdr_Finalize, tctildr, reason, reason_size) != 0) goto missing;
    isLoaded = 1;
    return 0;
missing:
    dlclose(tctiHandle);
    dlclose(esysHandle);
    return -1;
}

/// One connection to the TPM and the transient handles it holds, all flushed by `disconnect`:
/// with no resource manager in between (swtpm, a TPM without /dev/tpmrm0) a handle left
/// behind stays in the TPM and its object slots run out (TPM_RC 0x902).
typedef struct Connection {
    TSS2_TCTI_CONTEXT *tcti;
    ESYS_CONTEXT *esys;
    ESYS_TR handles[4];
    int handleCount;
} Connection;

static int fail(VaultTPMFailure *failure, int step, TSS2_RC code) {
    failure->step = step;
    failure->code = code;
    return -1;
}

static int connect(Connection *connection, const char *tcti, VaultTPMFailure *failure) {
    memset(connection, 0, sizeof *connection);
    if (!isLoaded) return fail(failure, VAULT_TPM_STEP_CONNECT, 0);
    TSS2_RC rc = tss.Tss2_TctiLdr_Initialize(tcti, &connection->tcti);
    if (rc != TSS2_RC_SUCCESS) return fail(failure, VAULT_TPM_STEP_CONNECT, rc);
    rc = tss.Esys_Initialize(&connection->esys, connection->tcti, NULL);
    if (rc != TSS2_RC_SUCCESS) {
        tss.Tss2_TctiLdr_Finalize(&connection->tcti);
        return fail(failure, VAULT_TPM_STEP_CONNECT, rc);
    }
    return 0;
}

static void hold(Connection *connection, ESYS_TR handle) {
    connection->handles[connection->handleCount++] = handle;
}

/// Flushes a handle before the end (a trial session), so at most four are ever held.
static void release(Connection *connection, ESYS_TR handle) {
    for (int index = 0; index < connection->handleCount; index++) {
        if (connection->handles[index] != handle) continue;
        tss.Esys_FlushContext(connection->esys, handle);
        connection->handles[index] = connection->handles[--connection->handleCount];
        return;
    }
}

static void disconnect(Connection *connection) {
    if (connection->esys == NULL) return;
    while (connection->handleCount > 0) tss.Esys_FlushContext(connection->esys, connection->handles[--connection->handleCount]);
    tss.Esys_Finalize(&connection->esys);
    tss.Tss2_TctiLdr_Finalize(&connection->tcti);
}

/// The owner hierarchy's storage primary from the TCG's ECC P-256 SRK template: the same key
/// each time on one TPM (it derives from the owner seed), a different one on every other TPM.
static int createPrimary(Connection *connection, ESYS_TR *primary, VaultTPMFailure *failure) {
    TPM2B_SENSITIVE_CREATE sensitive = {0};
    TPM2B_PUBLIC template = {
        .publicArea = {
            .type = TPM2_ALG_ECC,
            .nameAlg = TPM2_ALG_SHA256,
            .objectAttributes = TPMA_OBJECT_RESTRICTED | TPMA_OBJECT_DECRYPT | TPMA_OBJECT_FIXEDTPM |
                                TPMA_OBJECT_FIXEDPARENT | TPMA_OBJECT_SENSITIVEDATAORIGIN |
                                TPMA_OBJECT_USERWITHAUTH | TPMA_OBJECT_NODA,
            .parameters.eccDetail = {
                .symmetric = {.algorithm = TPM2_ALG_AES, .keyBits.aes = 128, .mode.aes = TPM2_ALG_CFB},
                .scheme = {.scheme = TPM2_ALG_NULL},
                .curveID = TPM2_ECC_NIST_P256,
                .kdf = {.scheme = TPM2_ALG_NULL},
            },
            .unique.ecc = {.x = {.size = 32}, .y = {.size = 32}},
        },
    };
    TPM2B_DATA outside = {0};
    TPML_PCR_SELECTION creation = {0};
    TPM2B_PUBLIC *outPublic = NULL;
    TPM2B_CREATION_DATA *creationData = NULL;
    TPM2B_DIGEST *creationHash = NULL;
    TPMT_TK_CREATION *ticket = NULL;
    TSS2_RC rc = tss.Esys_CreatePrimary(connection->esys, ESYS_TR_RH_OWNER, ESYS_TR_PASSWORD, ESYS_TR_NONE, ESYS_TR_NONE,
                                        &sensitive, &template, &outside, &creation, primary,
                                        &outPublic, &creationData, &creationHash, &ticket);
    tss.Esys_Free(outPublic);
    tss.Esys_Free(creationData);
    tss.Esys_Free(creationHash);
    tss.Esys_Free(ticket);
    if (rc != TSS2_RC_SUCCESS) return fail(failure, VAULT_TPM_STEP_PRIMARY, rc);
    hold(connection, *primary);
    return 0;
}

static TPML_PCR_SELECTION selection(const uint8_t *pcrs, size_t pcr_count) {
    TPML_PCR_SELECTION result = {.count = 1};
    result.pcrSelections[0].hash = TPM2_ALG_SHA256;
    result.pcrSelections[0].sizeofSelect = 3;
    for (size_t index = 0; index < pcr_count; index++) {
        result.pcrSelections[0].pcrSelect[pcrs[index] / 8] |= (uint8_t)(1u << (pcrs[index] % 8));
    }
    return result;
}

/// Starts a session of `type` (trial, policy or HMAC); a non-trial session is salted with the
/// primary and encrypts the parameter named by `encrypt`, so the key never crosses the bus in clear.
static int startSession(Connection *connection, TPM2_SE type, ESYS_TR primary, TPMA_SESSION encrypt, ESYS_TR *session,
                        VaultTPMFailure *failure) {
    TPMT_SYM_DEF aes = {.algorithm = TPM2_ALG_AES, .keyBits.aes = 128, .mode.aes = TPM2_ALG_CFB};
    TPMT_SYM_DEF none = {.algorithm = TPM2_ALG_NULL};
    int trial = type == TPM2_SE_TRIAL;
    TSS2_RC rc = tss.Esys_StartAuthSession(connection->esys, trial ? ESYS_TR_NONE : primary, ESYS_TR_NONE,
                                           ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, NULL, type,
                                           trial ? &none : &aes, TPM2_ALG_SHA256, session);
    if (rc != TSS2_RC_SUCCESS) return fail(failure, VAULT_TPM_STEP_SESSION, rc);
    hold(connection, *session);
    if (encrypt != 0) {
        rc = tss.Esys_TRSess_SetAttributes(connection->esys, *session, encrypt | TPMA_SESSION_CONTINUESESSION, 0xff);
        if (rc != TSS2_RC_SUCCESS) return fail(failure, VAULT_TPM_STEP_SESSION, rc);
    }
    return 0;
}

/// Runs the policy commands on `session`: PolicyPCR over `pcrs` at their values now (none when
/// `pcr_count` is 0: the recovery seal), then PolicyAuthValue when there is a PIN (or an auth value).
static int applyPolicy(Connection *connection, ESYS_TR session, const TPML_PCR_SELECTION *pcrs, size_t pcr_count, int withPIN,
                       VaultTPMFailure *failure) {
    TPM2B_DIGEST current = {0};
    TSS2_RC rc = TSS2_RC_SUCCESS;
    if (pcr_count > 0) rc = tss.Esys_PolicyPCR(connection->esys, session, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, &current, pcrs);
    if (rc == TSS2_RC_SUCCESS && withPIN) {
        rc = tss.Esys_PolicyAuthValue(connection->esys, session, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE);
    }
    return rc == TSS2_RC_SUCCESS ? 0 : fail(failure, VAULT_TPM_STEP_SESSION, rc);
}

int vault_tpm_seal(const char *tcti, const uint8_t *pcrs, size_t pcr_count, const uint8_t *pin, size_t pin_size,
                   const uint8_t *secret, size_t secret_size, uint8_t *blob, size_t *blob_size, VaultTPMFailure *failure) {
    if (secret_size > VAULT_TPM_SECRET_MAX || pin_size > VAULT_TPM_PIN_MAX) return fail(failure, VAULT_TPM_STEP_NONE, 0);
    Connection connection;
    if (connect(&connection, tcti, failure) != 0) return -1;
    int result = -1;
    TPML_PCR_SELECTION pcrSelection = selection(pcrs, pcr_count);
    ESYS_TR primary, trial, hmac;
    TPM2B_DIGEST *policy = NULL;
    TPM2B_PRIVATE *outPrivate = NULL;
    TPM2B_PUBLIC *outPublic = NULL;
    TPM2B_CREATION_DATA *creationData = NULL;
    TPM2B_DIGEST *creationHash = NULL;
    TPMT_TK_CREATION *ticket = NULL;
    TPM2B_SENSITIVE_CREATE sensitive = {0};
    if (createPrimary(&connection, &primary, failure) != 0) goto done;
    // A trial session computes the policy digest from the PCRs' values now.
    if (startSession(&connection, TPM2_SE_TRIAL, ESYS_TR_NONE, 0, &trial, failure) != 0) goto done;
    if (applyPolicy(&connection, trial, &pcrSelection, pcr_count, pin_size > 0, failure) != 0) goto done;
    TSS2_RC rc = tss.Esys_PolicyGetDigest(connection.esys, trial, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, &policy);
    if (rc != TSS2_RC_SUCCESS) {
        fail(failure, VAULT_TPM_STEP_SESSION, rc);
        goto done;
    }
    release(&connection, trial);
    TPM2B_PUBLIC template = {
        .publicArea = {
            .type = TPM2_ALG_KEYEDHASH,
            .nameAlg = TPM2_ALG_SHA256,
            // No USERWITHAUTH: only the policy opens it. Without a PIN there is no guess to count (NODA).
            .objectAttributes = TPMA_OBJECT_FIXEDTPM | TPMA_OBJECT_FIXEDPARENT | (pin_size > 0 ? 0 : TPMA_OBJECT_NODA),
            .authPolicy = *policy,
            .parameters.keyedHashDetail.scheme.scheme = TPM2_ALG_NULL,
        },
    };
    sensitive.sensitive.userAuth.size = (UINT16)pin_size;
    if (pin_size > 0) memcpy(sensitive.sensitive.userAuth.buffer, pin, pin_size);
    sensitive.sensitive.data.size = (UINT16)secret_size;
    memcpy(sensitive.sensitive.data.buffer, secret, secret_size);
    if (startSession(&connection, TPM2_SE_HMAC, primary, TPMA_SESSION_DECRYPT, &hmac, failure) != 0) goto done;
    TPM2B_DATA outside = {0};
    TPML_PCR_SELECTION creation = {0};
    rc = tss.Esys_Create(connection.esys, primary, hmac, ESYS_TR_NONE, ESYS_TR_NONE, &sensitive, &template, &outside,
                         &creation, &outPrivate, &outPublic, &creationData, &creationHash, &ticket);
    if (rc != TSS2_RC_SUCCESS) {
        fail(failure, VAULT_TPM_STEP_CREATE, rc);
        goto done;
    }
    size_t offset = 0;
    rc = tss.Tss2_MU_TPM2B_PUBLIC_Marshal(outPublic, blob, VAULT_TPM_BLOB_MAX, &offset);
    if (rc == TSS2_RC_SUCCESS) rc = tss.Tss2_MU_TPM2B_PRIVATE_Marshal(outPrivate, blob, VAULT_TPM_BLOB_MAX, &offset);
    if (rc != TSS2_RC_SUCCESS) {
        fail(failure, VAULT_TPM_STEP_BLOB, rc);
        goto done;
    }
    *blob_size = offset;
    result = 0;
done:
    explicit_bzero(&sensitive, sizeof sensitive);
    tss.Esys_Free(policy);
    tss.Esys_Free(outPrivate);
    tss.Esys_Free(outPublic);
    tss.Esys_Free(creationData);
    tss.Esys_Free(creationHash);
    tss.Esys_Free(ticket);
    disconnect(&connection);
    return result;
}

int vault_tpm_unseal(const char *tcti, const uint8_t *pcrs, size_t pcr_count, const uint8_t *pin, size_t pin_size,
                     const uint8_t *blob, size_t blob_size, uint8_t *secret, size_t *secret_size, VaultTPMFailure *failure) {
    if (pin_size > VAULT_TPM_PIN_MAX) return fail(failure, VAULT_TPM_STEP_NONE, 0);
    TPM2B_PUBLIC inPublic = {0};
    TPM2B_PRIVATE inPrivate = {0};
    size_t offset = 0;
    if (!isLoaded) return fail(failure, VAULT_TPM_STEP_CONNECT, 0);
    TSS2_RC rc = tss.Tss2_MU_TPM2B_PUBLIC_Unmarshal(blob, blob_size, &offset, &inPublic);
    if (rc == TSS2_RC_SUCCESS) rc = tss.Tss2_MU_TPM2B_PRIVATE_Unmarshal(blob, blob_size, &offset, &inPrivate);
    if (rc != TSS2_RC_SUCCESS || offset != blob_size) return fail(failure, VAULT_TPM_STEP_BLOB, rc);
    Connection connection;
    if (connect(&connection, tcti, failure) != 0) return -1;
    int result = -1;
    TPML_PCR_SELECTION pcrSelection = selection(pcrs, pcr_count);
    ESYS_TR primary, sealed, session;
    TPM2B_SENSITIVE_DATA *unsealed = NULL;
    if (createPrimary(&connection, &primary, failure) != 0) goto done;
    rc = tss.Esys_Load(connection.esys, primary, ESYS_TR_PASSWORD, ESYS_TR_NONE, ESYS_TR_NONE, &inPrivate, &inPublic, &sealed);
    if (rc != TSS2_RC_SUCCESS) {
        fail(failure, VAULT_TPM_STEP_LOAD, rc);
        goto done;
    }
    hold(&connection, sealed);
    TPM2B_AUTH auth = {.size = (UINT16)pin_size};
    if (pin_size > 0) memcpy(auth.buffer, pin, pin_size);
    rc = tss.Esys_TR_SetAuth(connection.esys, sealed, &auth);
    explicit_bzero(&auth, sizeof auth);
    if (rc != TSS2_RC_SUCCESS) {
        fail(failure, VAULT_TPM_STEP_SESSION, rc);
        goto done;
    }
    if (startSession(&connection, TPM2_SE_POLICY, primary, TPMA_SESSION_ENCRYPT, &session, failure) != 0) goto done;
    if (applyPolicy(&connection, session, &pcrSelection, pcr_count, pin_size > 0, failure) != 0) goto done;
    rc = tss.Esys_Unseal(connection.esys, sealed, session, ESYS_TR_NONE, ESYS_TR_NONE, &unsealed);
    if (rc != TSS2_RC_SUCCESS) {
        fail(failure, VAULT_TPM_STEP_UNSEAL, rc);
        goto done;
    }
    memcpy(secret, unsealed->buffer, unsealed->size);
    *secret_size = unsealed->size;
    result = 0;
done:
    if (unsealed != NULL) explicit_bzero(unsealed, sizeof *unsealed);
    tss.Esys_Free(unsealed);
    disconnect(&connection);
    return result;
}
