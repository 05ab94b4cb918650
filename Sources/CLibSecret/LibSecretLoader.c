// Resolves the functions of CLibSecret.h with dlopen/dlsym. dlopen is in libc
// (glibc 2.34+), so this adds no library to vault's link line, and no
// libsecret header is needed to build it: scripts/check-libsecret-types.sh
// checks CLibSecret.h's types against libsecret's headers where pkg-config
// knows them (make test runs it).
#include "CLibSecret.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static VaultLibSecret loaded;
static int isLoaded;

const VaultLibSecret *vault_libsecret_load(const char *path, char *reason, size_t reason_size) {
    if (isLoaded) return &loaded;
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        snprintf(reason, reason_size, "%s", dlerror());
        return NULL;
    }
    VaultLibSecret table;
    void *symbol;
// dlsym on the handle also searches the libraries it loaded (GLib, GIO).
#define VAULT_RESOLVE(name) \
    symbol = dlsym(handle, #name); \
    if (symbol == NULL) { \
        snprintf(reason, reason_size, "%s has no function %s", path, #name); \
        dlclose(handle); \
        return NULL; \
    } \
    memcpy(&table.name, &symbol, sizeof symbol);
    VAULT_LIBSECRET_FUNCTIONS(VAULT_RESOLVE)
    loaded = table;
    isLoaded = 1;
    return &loaded;
}
