import CLibSecret

/// What an error libsecret reported is, told by its GError's domain and code,
/// never by its message.
public enum LibSecretErrorKind: Equatable, Sendable {
    /// No object at the D-Bus path asked: an item or collection another client
    /// deleted. libsecret reports a proxy whose object is not there ("No such
    /// secret item at path: …", an error of its own) and GNOME Keyring a call on
    /// a deleted object ("Object does not exist at path …") with GDBus's
    /// unknown-method code (G_DBUS_ERROR_UNKNOWN_METHOD), not with libsecret's
    /// SECRET_ERROR_NO_SUCH_OBJECT. A daemon that lacks a method reports the same code.
    case noObjectAtPath
    /// Any other domain or code.
    case other
}

extension LibSecretErrorKind {
    /// The kind of `error`, its domain compared with the quark the loaded GLib gives.
    init(_ error: GError, api: VaultLibSecret) {
        let isUnknownMethod = error.domain == api.g_dbus_error_quark() && error.code == Int32(VAULT_G_DBUS_ERROR_UNKNOWN_METHOD)
        self = isUnknownMethod ? .noObjectAtPath : .other
    }
}
