// The few libsecret and GLib functions the Secret Service backend calls, as
// function pointers filled by dlopen("libsecret-1.so.0") at run time: vault
// has no link-time dependency on libsecret or GLib, so it runs (with the file
// backend) where they are not installed. LibSecretLoader.c checks each type
// below against libsecret's own headers (libsecret-1-dev) when it compiles.
#ifndef VAULT_CLIBSECRET_H
#define VAULT_CLIBSECRET_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

// Opaque types, with the tags GLib and libsecret give them.
typedef struct _GHashTable GHashTable;
typedef struct _GCancellable GCancellable;
typedef struct _SecretService SecretService;
typedef struct _SecretCollection SecretCollection;
typedef struct _SecretItem SecretItem;
typedef struct _SecretValue SecretValue;
#ifndef __SECRET_SCHEMA_H__
typedef struct _SecretSchema SecretSchema;  // an anonymous struct in libsecret's header
#endif
typedef struct _GDBusProxy GDBusProxy;
typedef struct _GDBusConnection GDBusConnection;
typedef struct _GVariant GVariant;
typedef struct _GVariantType GVariantType;

// Structs whose fields vault reads: GLib's public (stable ABI) layouts. The
// guards let LibSecretLoader.c include GLib's own definitions first.
typedef struct _GList GList;
#ifndef __G_LIST_H__
struct _GList {
    void *data;
    GList *next;
    GList *prev;
};
#endif

typedef struct _GError GError;
#ifndef __G_ERROR_H__
struct _GError {
    uint32_t domain;
    int code;
    char *message;
};
#endif

// Flag values from libsecret's headers (secret-service.h, secret-types.h, …),
// and GDBus's code for an unknown method (gioenums.h), with which libsecret and
// the keyring report an object gone from its D-Bus path.
enum {
    VAULT_SECRET_SERVICE_OPEN_SESSION = 1 << 1,
    VAULT_SECRET_SERVICE_LOAD_COLLECTIONS = 1 << 2,
    VAULT_SECRET_SCHEMA_NONE = 0,
    VAULT_SECRET_SCHEMA_DONT_MATCH_NAME = 1 << 1,
    VAULT_SECRET_SCHEMA_ATTRIBUTE_STRING = 0,
    VAULT_SECRET_SEARCH_ALL = 1 << 1,
    VAULT_SECRET_ITEM_CREATE_NONE = 0,
    VAULT_G_DBUS_ERROR_UNKNOWN_METHOD = 19,
    VAULT_G_BUS_TYPE_SESSION = 2,
};

/// The functions vault calls, resolved from libsecret and the GLib it loads.
typedef struct VaultLibSecret {
    // GLib
    GHashTable *(*g_hash_table_new)(unsigned int (*hash)(const void *), int (*equal)(const void *, const void *));
    unsigned int (*g_str_hash)(const void *);
    int (*g_str_equal)(const void *, const void *);
    int (*g_hash_table_insert)(GHashTable *, void *key, void *value);
    void *(*g_hash_table_lookup)(GHashTable *, const void *key);
    GList *(*g_hash_table_get_keys)(GHashTable *);
    void (*g_hash_table_unref)(GHashTable *);
    void (*g_list_free)(GList *);
    void (*g_object_unref)(void *);
    void (*g_error_free)(GError *);
    void (*g_free)(void *);
    const char *(*g_dbus_proxy_get_object_path)(GDBusProxy *);
    uint32_t (*g_dbus_error_quark)(void);
    // GIO's bus calls: who owns org.freedesktop.secrets (vault refuses to be its own keyring)
    GDBusConnection *(*g_bus_get_sync)(int bus_type, GCancellable *, GError **);
    GVariant *(*g_dbus_connection_call_sync)(GDBusConnection *, const char *bus_name, const char *object_path,
                                             const char *interface_name, const char *method_name, GVariant *parameters,
                                             const GVariantType *reply_type, unsigned int flags, int timeout_msec,
                                             GCancellable *, GError **);
    GVariant *(*g_variant_new_string)(const char *);
    GVariant *(*g_variant_new_tuple)(GVariant *const *children, size_t n_children);
    GVariant *(*g_variant_get_child_value)(GVariant *, size_t index);
    const char *(*g_variant_get_string)(GVariant *, size_t *length);
    uint32_t (*g_variant_get_uint32)(GVariant *);
    void (*g_variant_unref)(GVariant *);

    // libsecret
    SecretSchema *(*secret_schema_newv)(const char *name, unsigned int flags, GHashTable *attribute_names_and_types);
    void (*secret_schema_unref)(SecretSchema *);
    SecretService *(*secret_service_get_sync)(unsigned int flags, GCancellable *, GError **);
    GList *(*secret_service_get_collections)(SecretService *);
    int (*secret_service_load_collections_sync)(SecretService *, GCancellable *, GError **);
    int (*secret_service_unlock_sync)(SecretService *, GList *objects, GCancellable *, GList **unlocked, GError **);
    SecretCollection *(*secret_collection_for_alias_sync)(SecretService *, const char *alias, unsigned int flags, GCancellable *, GError **);
    SecretCollection *(*secret_collection_new_for_dbus_path_sync)(SecretService *, const char *path, unsigned int flags, GCancellable *, GError **);
    char *(*secret_collection_get_label)(SecretCollection *);
    int (*secret_collection_get_locked)(SecretCollection *);
    int (*secret_collection_load_items_sync)(SecretCollection *, GCancellable *, GError **);
    GList *(*secret_collection_get_items)(SecretCollection *);
    GList *(*secret_collection_search_sync)(SecretCollection *, const SecretSchema *, GHashTable *attributes, unsigned int flags, GCancellable *, GError **);
    SecretItem *(*secret_item_create_sync)(SecretCollection *, const SecretSchema *, GHashTable *attributes, const char *label, SecretValue *, unsigned int flags, GCancellable *, GError **);
    GHashTable *(*secret_item_get_attributes)(SecretItem *);
    char *(*secret_item_get_label)(SecretItem *);
    uint64_t (*secret_item_get_created)(SecretItem *);
    uint64_t (*secret_item_get_modified)(SecretItem *);
    int (*secret_item_get_locked)(SecretItem *);
    int (*secret_item_load_secret_sync)(SecretItem *, GCancellable *, GError **);
    SecretValue *(*secret_item_get_secret)(SecretItem *);
    int (*secret_item_set_secret_sync)(SecretItem *, SecretValue *, GCancellable *, GError **);
    int (*secret_item_set_attributes_sync)(SecretItem *, const SecretSchema *, GHashTable *attributes, GCancellable *, GError **);
    int (*secret_item_set_label_sync)(SecretItem *, const char *label, GCancellable *, GError **);
    int (*secret_item_delete_sync)(SecretItem *, GCancellable *, GError **);
    SecretValue *(*secret_value_new)(const char *secret, ssize_t length, const char *content_type);
    const char *(*secret_value_get)(SecretValue *, size_t *length);
    void (*secret_value_unref)(void *);
} VaultLibSecret;

/// Loads the library at `path` (once per process) and resolves every function.
/// Returns the table, or NULL with a one-line reason (dlerror's words) in `reason`.
const VaultLibSecret *vault_libsecret_load(const char *path, char *reason, size_t reason_size);

/// Every function of VaultLibSecret, for X-macros: the loader resolves each
/// with dlsym, and scripts/check-libsecret-types.c checks each one's type.
#define VAULT_LIBSECRET_FUNCTIONS(X) \
    X(g_hash_table_new) X(g_str_hash) X(g_str_equal) X(g_hash_table_insert) X(g_hash_table_lookup) \
    X(g_hash_table_get_keys) X(g_hash_table_unref) X(g_list_free) X(g_object_unref) X(g_error_free) X(g_free) \
    X(g_dbus_proxy_get_object_path) X(g_dbus_error_quark) X(g_bus_get_sync) X(g_dbus_connection_call_sync) \
    X(g_variant_new_string) X(g_variant_new_tuple) X(g_variant_get_child_value) X(g_variant_get_string) \
    X(g_variant_get_uint32) X(g_variant_unref) \
    X(secret_schema_newv) X(secret_schema_unref) X(secret_service_get_sync) X(secret_service_get_collections) \
    X(secret_service_load_collections_sync) X(secret_service_unlock_sync) X(secret_collection_for_alias_sync) \
    X(secret_collection_new_for_dbus_path_sync) X(secret_collection_get_label) \
    X(secret_collection_get_locked) X(secret_collection_load_items_sync) X(secret_collection_get_items) \
    X(secret_collection_search_sync) X(secret_item_create_sync) \
    X(secret_item_get_attributes) X(secret_item_get_label) X(secret_item_get_created) X(secret_item_get_modified) \
    X(secret_item_get_locked) X(secret_item_load_secret_sync) X(secret_item_get_secret) X(secret_item_set_secret_sync) \
    X(secret_item_set_attributes_sync) X(secret_item_set_label_sync) X(secret_item_delete_sync) X(secret_value_new) \
    X(secret_value_get) X(secret_value_unref)

#endif
