// Compiled (never linked) by scripts/check-libsecret-types.sh with libsecret's
// own headers: each pointer in VaultLibSecret must have the type of the real
// function, and each constant its value, so a changed prototype fails here
// instead of crashing vault at run time.
// secret_collection_new_for_dbus_path_sync is declared only for callers of
// libsecret's "unstable" API (exported all the same, since libsecret 0.7).
#define SECRET_API_SUBJECT_TO_CHANGE
#include <libsecret/secret.h>

#include "CLibSecret.h"

#define VAULT_CHECK_TYPE(name) \
    _Static_assert(__builtin_types_compatible_p(__typeof__(&name), __typeof__(((VaultLibSecret *)0)->name)), \
                   "CLibSecret.h declares " #name " with another type than libsecret's headers");
VAULT_LIBSECRET_FUNCTIONS(VAULT_CHECK_TYPE)

_Static_assert(SECRET_SERVICE_OPEN_SESSION == VAULT_SECRET_SERVICE_OPEN_SESSION, "flag value");
_Static_assert(SECRET_SERVICE_LOAD_COLLECTIONS == VAULT_SECRET_SERVICE_LOAD_COLLECTIONS, "flag value");
_Static_assert(SECRET_SCHEMA_DONT_MATCH_NAME == VAULT_SECRET_SCHEMA_DONT_MATCH_NAME, "flag value");
_Static_assert(SECRET_SCHEMA_ATTRIBUTE_STRING == VAULT_SECRET_SCHEMA_ATTRIBUTE_STRING, "flag value");
_Static_assert(SECRET_SEARCH_ALL == VAULT_SECRET_SEARCH_ALL, "flag value");
_Static_assert(G_DBUS_ERROR_UNKNOWN_METHOD == VAULT_G_DBUS_ERROR_UNKNOWN_METHOD, "error code");
_Static_assert(G_BUS_TYPE_SESSION == VAULT_G_BUS_TYPE_SESSION, "bus type");
