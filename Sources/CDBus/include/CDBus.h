// The few libdbus-1 functions the Secret Service provider (`vault secret-service
// serve`) calls, as function pointers filled by dlopen("libdbus-1.so.3") at run
// time: vault links no D-Bus library, and no command but `secret-service` loads
// it. scripts/check-dbus-types.c checks each type and layout below against
// libdbus's own headers (libdbus-1-dev) when `make test` runs.
#ifndef VAULT_CDBUS_H
#define VAULT_CDBUS_H

#include <stddef.h>
#include <stdint.h>

typedef struct DBusConnection DBusConnection;
typedef struct DBusMessage DBusMessage;
typedef struct DBusError DBusError;
typedef struct DBusMessageIter DBusMessageIter;

// The two structs vault allocates itself. DBusError's five one-bit fields are
// one unsigned int here (the same layout, no bit-fields for Swift); the
// iterator's fields are private to libdbus: only its size and alignment matter.
#ifndef DBUS_ERROR_H
struct DBusError {
    const char *name;
    const char *message;
    unsigned int dummy;
    void *padding1;
};
#endif
#ifndef DBUS_MESSAGE_H
struct DBusMessageIter {
    void *dummy1;
    void *dummy2;
    uint32_t dummy3;
    int dummy4, dummy5, dummy6, dummy7, dummy8, dummy9, dummy10, dummy11;
    int pad1;
    void *pad2;
    void *pad3;
};
#endif

// Constants from dbus-protocol.h and dbus-shared.h (checked by scripts/check-dbus-types.c).
enum {
    VAULT_DBUS_BUS_SESSION = 0,
    VAULT_DBUS_MESSAGE_TYPE_METHOD_CALL = 1,
    VAULT_DBUS_MESSAGE_TYPE_SIGNAL = 4,
    VAULT_DBUS_NAME_FLAG_DO_NOT_QUEUE = 0x4,
    VAULT_DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER = 1,
    VAULT_DBUS_TYPE_INVALID = 0,
    VAULT_DBUS_TYPE_BYTE = 'y',
    VAULT_DBUS_TYPE_BOOLEAN = 'b',
    VAULT_DBUS_TYPE_UINT32 = 'u',
    VAULT_DBUS_TYPE_UINT64 = 't',
    VAULT_DBUS_TYPE_STRING = 's',
    VAULT_DBUS_TYPE_OBJECT_PATH = 'o',
    VAULT_DBUS_TYPE_ARRAY = 'a',
    VAULT_DBUS_TYPE_VARIANT = 'v',
    VAULT_DBUS_TYPE_STRUCT = 'r',
    VAULT_DBUS_TYPE_DICT_ENTRY = 'e',
};

/// The functions vault calls, resolved from libdbus-1.
typedef struct VaultDBus {
    void (*dbus_error_init)(DBusError *);
    void (*dbus_error_free)(DBusError *);
    DBusConnection *(*dbus_bus_get_private)(unsigned int type, DBusError *);
    const char *(*dbus_bus_get_unique_name)(DBusConnection *);
    int (*dbus_bus_request_name)(DBusConnection *, const char *name, unsigned int flags, DBusError *);
    int (*dbus_bus_release_name)(DBusConnection *, const char *name, DBusError *);
    void (*dbus_bus_add_match)(DBusConnection *, const char *rule, DBusError *);
    uint32_t (*dbus_connection_read_write)(DBusConnection *, int timeout_milliseconds);
    DBusMessage *(*dbus_connection_pop_message)(DBusConnection *);
    uint32_t (*dbus_connection_send)(DBusConnection *, DBusMessage *, uint32_t *serial);
    DBusMessage *(*dbus_connection_send_with_reply_and_block)(DBusConnection *, DBusMessage *, int timeout_milliseconds, DBusError *);
    void (*dbus_connection_flush)(DBusConnection *);
    void (*dbus_connection_close)(DBusConnection *);
    void (*dbus_connection_unref)(DBusConnection *);
    void (*dbus_connection_set_exit_on_disconnect)(DBusConnection *, uint32_t exit_on_disconnect);
    int (*dbus_message_get_type)(DBusMessage *);
    const char *(*dbus_message_get_path)(DBusMessage *);
    const char *(*dbus_message_get_interface)(DBusMessage *);
    const char *(*dbus_message_get_member)(DBusMessage *);
    const char *(*dbus_message_get_sender)(DBusMessage *);
    const char *(*dbus_message_get_signature)(DBusMessage *);
    uint32_t (*dbus_message_get_no_reply)(DBusMessage *);
    DBusMessage *(*dbus_message_new_method_call)(const char *destination, const char *path, const char *iface, const char *method);
    DBusMessage *(*dbus_message_new_method_return)(DBusMessage *method_call);
    DBusMessage *(*dbus_message_new_error)(DBusMessage *reply_to, const char *error_name, const char *error_message);
    DBusMessage *(*dbus_message_new_signal)(const char *path, const char *iface, const char *name);
    void (*dbus_message_unref)(DBusMessage *);
    uint32_t (*dbus_message_iter_init)(DBusMessage *, DBusMessageIter *);
    void (*dbus_message_iter_init_append)(DBusMessage *, DBusMessageIter *);
    int (*dbus_message_iter_get_arg_type)(DBusMessageIter *);
    int (*dbus_message_iter_get_element_type)(DBusMessageIter *);
    void (*dbus_message_iter_recurse)(DBusMessageIter *, DBusMessageIter *sub);
    uint32_t (*dbus_message_iter_next)(DBusMessageIter *);
    void (*dbus_message_iter_get_basic)(DBusMessageIter *, void *value);
    void (*dbus_message_iter_get_fixed_array)(DBusMessageIter *, void *value, int *n_elements);
    uint32_t (*dbus_message_iter_append_basic)(DBusMessageIter *, int type, const void *value);
    uint32_t (*dbus_message_iter_append_fixed_array)(DBusMessageIter *, int element_type, const void *value, int n_elements);
    uint32_t (*dbus_message_iter_open_container)(DBusMessageIter *, int type, const char *contained_signature, DBusMessageIter *sub);
    uint32_t (*dbus_message_iter_close_container)(DBusMessageIter *, DBusMessageIter *sub);
} VaultDBus;

/// Loads the library at `path` (once per process) and resolves every function.
/// Returns the table, or NULL with a one-line reason (dlerror's words) in `reason`.
const VaultDBus *vault_dbus_load(const char *path, char *reason, size_t reason_size);

/// Every function of VaultDBus, for X-macros: the loader resolves each with
/// dlsym, and scripts/check-dbus-types.c checks each one's type.
#define VAULT_DBUS_FUNCTIONS(X) \
    X(dbus_error_init) X(dbus_error_free) X(dbus_bus_get_private) X(dbus_bus_get_unique_name) \
    X(dbus_bus_request_name) X(dbus_bus_release_name) X(dbus_bus_add_match) X(dbus_connection_read_write) \
    X(dbus_connection_pop_message) X(dbus_connection_send) X(dbus_connection_send_with_reply_and_block) \
    X(dbus_connection_flush) X(dbus_connection_close) X(dbus_connection_unref) X(dbus_connection_set_exit_on_disconnect) \
    X(dbus_message_get_type) X(dbus_message_get_path) X(dbus_message_get_interface) X(dbus_message_get_member) \
    X(dbus_message_get_sender) X(dbus_message_get_signature) X(dbus_message_get_no_reply) \
    X(dbus_message_new_method_call) X(dbus_message_new_method_return) X(dbus_message_new_error) \
    X(dbus_message_new_signal) X(dbus_message_unref) X(dbus_message_iter_init) X(dbus_message_iter_init_append) \
    X(dbus_message_iter_get_arg_type) X(dbus_message_iter_get_element_type) X(dbus_message_iter_recurse) \
    X(dbus_message_iter_next) X(dbus_message_iter_get_basic) X(dbus_message_iter_get_fixed_array) \
    X(dbus_message_iter_append_basic) X(dbus_message_iter_append_fixed_array) X(dbus_message_iter_open_container) \
    X(dbus_message_iter_close_container)

#endif
