// Resolves the functions of CDBus.h with dlopen/dlsym. dlopen is in libc
// (glibc 2.34+), so this adds no library to vault's link line, and no
// libdbus header is needed to build it: scripts/check-dbus-types.sh
// checks CDBus.h's types against libdbus's headers where pkg-config
// knows them (make test runs it).
#include "CDBus.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static VaultDBus loaded;
static int isLoaded;

const VaultDBus *vault_dbus_load(const char *path, char *reason, size_t reason_size) {
    if (isLoaded) return &loaded;
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        snprintf(reason, reason_size, "%s", dlerror());
        return NULL;
    }
    VaultDBus table;
    void *symbol;

#define VAULT_RESOLVE(name) \
    symbol = dlsym(handle, #name); \
    if (symbol == NULL) { \
        snprintf(reason, reason_size, "%s has no function %s", path, #name); \
        dlclose(handle); \
        return NULL; \
    } \
    memcpy(&table.name, &symbol, sizeof symbol);
    VAULT_DBUS_FUNCTIONS(VAULT_RESOLVE)
    loaded = table;
    isLoaded = 1;
    return &loaded;
}
