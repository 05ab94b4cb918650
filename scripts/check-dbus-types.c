// Compiled (never linked) by scripts/check-dbus-types.sh with libdbus's own
// headers: each pointer in VaultDBus must have the type of the real function,
// each constant its value, and the two structs vault allocates their size, so
// a changed prototype fails here instead of crashing vault at run time.
#include <dbus/dbus.h>
#include <stddef.h>

#include "CDBus.h"

#define VAULT_CHECK_TYPE(name) \
    _Static_assert(__builtin_types_compatible_p(__typeof__(&name), __typeof__(((VaultDBus *)0)->name)), \
                   "CDBus.h declares " #name " with another type than libdbus's headers");
VAULT_DBUS_FUNCTIONS(VAULT_CHECK_TYPE)

// CDBus.h's own layouts, compiled without libdbus's headers, against the real ones.
struct VaultCheckError { const char *name; const char *message; unsigned int dummy; void *padding1; };
struct VaultCheckIter {
    void *dummy1; void *dummy2; uint32_t dummy3;
    int dummy4, dummy5, dummy6, dummy7, dummy8, dummy9, dummy10, dummy11; int pad1; void *pad2; void *pad3;
};
_Static_assert(sizeof(struct VaultCheckError) == sizeof(DBusError), "DBusError's size");
_Static_assert(offsetof(struct VaultCheckError, message) == offsetof(DBusError, message), "DBusError's message");
_Static_assert(sizeof(struct VaultCheckIter) == sizeof(DBusMessageIter), "DBusMessageIter's size");
_Static_assert(_Alignof(struct VaultCheckIter) == _Alignof(DBusMessageIter), "DBusMessageIter's alignment");

_Static_assert(DBUS_BUS_SESSION == VAULT_DBUS_BUS_SESSION, "bus type");
_Static_assert(DBUS_MESSAGE_TYPE_METHOD_CALL == VAULT_DBUS_MESSAGE_TYPE_METHOD_CALL, "message type");
_Static_assert(DBUS_MESSAGE_TYPE_SIGNAL == VAULT_DBUS_MESSAGE_TYPE_SIGNAL, "message type");
_Static_assert(DBUS_NAME_FLAG_DO_NOT_QUEUE == VAULT_DBUS_NAME_FLAG_DO_NOT_QUEUE, "name flag");
_Static_assert(DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER == VAULT_DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER, "reply");
_Static_assert(DBUS_TYPE_INVALID == VAULT_DBUS_TYPE_INVALID, "type code");
_Static_assert(DBUS_TYPE_BYTE == VAULT_DBUS_TYPE_BYTE, "type code");
_Static_assert(DBUS_TYPE_BOOLEAN == VAULT_DBUS_TYPE_BOOLEAN, "type code");
_Static_assert(DBUS_TYPE_UINT32 == VAULT_DBUS_TYPE_UINT32, "type code");
_Static_assert(DBUS_TYPE_UINT64 == VAULT_DBUS_TYPE_UINT64, "type code");
_Static_assert(DBUS_TYPE_STRING == VAULT_DBUS_TYPE_STRING, "type code");
_Static_assert(DBUS_TYPE_OBJECT_PATH == VAULT_DBUS_TYPE_OBJECT_PATH, "type code");
_Static_assert(DBUS_TYPE_ARRAY == VAULT_DBUS_TYPE_ARRAY, "type code");
_Static_assert(DBUS_TYPE_VARIANT == VAULT_DBUS_TYPE_VARIANT, "type code");
_Static_assert(DBUS_TYPE_STRUCT == VAULT_DBUS_TYPE_STRUCT, "type code");
_Static_assert(DBUS_TYPE_DICT_ENTRY == VAULT_DBUS_TYPE_DICT_ENTRY, "type code");
