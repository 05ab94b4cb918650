// Resolves the functions of CLibSecret.h with dlopen/dlsym. dlopen is in libc
// (glibc 2.34+), so this adds no library to vault's link line.
// libsecret's own headers (libsecret-1-dev), for the type checks below only:
// nothing here takes a function's address, so nothing is linked.
// secret_collection_new_for_dbus_path_sync is declared only for callers of
// libsecret's "unstable" API (exported all the same, since libsecret 0.7).
#define SECRET_API_SUBJECT_TO_CHANGE
#include <libsecret/secret.h>

#include "CLibSecret.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#define VAULT_LIBSECRET_FUNCTIONS(X) \
    X(g_hash_table_new) X(g_str_hash) X(g_str_equal) X(g_hash_table_insert) X(g_hash_table_lookup) \
    X(g_hash_table_get_keys) X(g_hash_table_unref) X(g_list_free) X(g_object_unref) X(g_error_free) X(g_free) \
    X(g_dbus_proxy_get_object_path) \
    X(secret_schema_newv) X(secret_schema_unref) X(secret_service_get_sync) X(secret_service_get_collections) \
    X(secret_service_load_collections_sync) X(secret_service_unlock_sync) X(secret_collection_for_alias_sync) \
    X(secret_collection_new_for_dbus_path_sync) X(secret_collection_get_label) \
    X(secret_collection_get_locked) X(secret_collection_load_items_sync) X(secret_collection_get_items) \
    X(secret_collection_search_sync) X(secret_item_create_sync) \
    X(secret_item_get_attributes) X(secret_item_get_label) X(secret_item_get_created) X(secret_item_get_modified) \
    X(secret_item_get_locked) X(secret_item_load_secret_sync) X(secret_item_get_secret) X(secret_item_set_secret_sync) \
    X(secret_item_set_attributes_sync) X(secret_item_set_label_sync) X(secret_item_delete_sync) X(secret_value_new) \
    X(secret_value_get) X(secret_value_unref)

// Each pointer in VaultLibSecret has the type of the real function, so a
// changed prototype fails the build here instead of crashing at run time.
#define VAULT_CHECK_TYPE(name) \
    _Static_assert(__builtin_types_compatible_p(__typeof__(&name), __typeof__(((VaultLibSecret *)0)->name)), \
                   "CLibSecret.h declares " #name " with another type than libsecret's headers");
VAULT_LIBSECRET_FUNCTIONS(VAULT_CHECK_TYPE)

_Static_assert(SECRET_SERVICE_OPEN_SESSION == VAULT_SECRET_SERVICE_OPEN_SESSION, "flag value");
_Static_assert(SECRET_SERVICE_LOAD_COLLECTIONS == VAULT_SECRET_SERVICE_LOAD_COLLECTIONS, "flag value");
_Static_assert(SECRET_SCHEMA_DONT_MATCH_NAME == VAULT_SECRET_SCHEMA_DONT_MATCH_NAME, "flag value");
_Static_assert(SECRET_SCHEMA_ATTRIBUTE_STRING == VAULT_SECRET_SCHEMA_ATTRIBUTE_STRING, "flag value");
_Static_assert(SECRET_SEARCH_ALL == VAULT_SECRET_SEARCH_ALL, "flag value");
_Static_assert(SECRET_ERROR_IS_LOCKED == VAULT_SECRET_ERROR_IS_LOCKED, "error code");
_Static_assert(SECRET_ERROR_NO_SUCH_OBJECT == VAULT_SECRET_ERROR_NO_SUCH_OBJECT, "error code");

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
