#if canImport(Glibc)
import Glibc
#endif
internal import CDBus

/// Reads a message's arguments into `DBusValue`s and appends values to a message, through libdbus's iterators.
struct DBusMessageCodec {
    let library: DBusLibrary
    private var f: VaultDBus { library.functions }

    /// Every argument of `message`, in order.
    func arguments(of message: OpaquePointer) -> [DBusValue] {
        var iterator = DBusMessageIter()
        guard f.dbus_message_iter_init!(message, &iterator) != 0 else { return [] }
        return readAll(&iterator)
    }

    private func readAll(_ iterator: inout DBusMessageIter) -> [DBusValue] {
        var values: [DBusValue] = []
        while f.dbus_message_iter_get_arg_type!(&iterator) != Int32(VAULT_DBUS_TYPE_INVALID) {
            if let value = read(&iterator) { values.append(value) }
            _ = f.dbus_message_iter_next!(&iterator)
        }
        return values
    }

    private func read(_ iterator: inout DBusMessageIter) -> DBusValue? {
        let type = f.dbus_message_iter_get_arg_type!(&iterator)
        switch UInt8(truncatingIfNeeded: type) {
        case UInt8(ascii: "y"):
            var value: UInt8 = 0
            f.dbus_message_iter_get_basic!(&iterator, &value)
            return .byte(value)
        case UInt8(ascii: "b"):
            var value: UInt32 = 0
            f.dbus_message_iter_get_basic!(&iterator, &value)
            return .boolean(value != 0)
        case UInt8(ascii: "u"):
            var value: UInt32 = 0
            f.dbus_message_iter_get_basic!(&iterator, &value)
            return .uint32(value)
        case UInt8(ascii: "t"):
            var value: UInt64 = 0
            f.dbus_message_iter_get_basic!(&iterator, &value)
            return .uint64(value)
        case UInt8(ascii: "s"), UInt8(ascii: "o"):
            var pointer: UnsafePointer<CChar>? = nil
            f.dbus_message_iter_get_basic!(&iterator, &pointer)
            let text = pointer.map { String(cString: $0) } ?? ""
            return type == Int32(VAULT_DBUS_TYPE_STRING) ? .string(text) : .objectPath(text)
        case UInt8(ascii: "v"):
            var inner = DBusMessageIter()
            f.dbus_message_iter_recurse!(&iterator, &inner)
            return read(&inner).map { .variant($0) }
        case UInt8(ascii: "r"):
            var inner = DBusMessageIter()
            f.dbus_message_iter_recurse!(&iterator, &inner)
            return .structure(readAll(&inner))
        case UInt8(ascii: "a"):
            return readArray(&iterator)
        default:
            return nil
        }
    }

    private func readArray(_ iterator: inout DBusMessageIter) -> DBusValue {
        let element = f.dbus_message_iter_get_element_type!(&iterator)
        var inner = DBusMessageIter()
        f.dbus_message_iter_recurse!(&iterator, &inner)
        if element == Int32(VAULT_DBUS_TYPE_BYTE) {
            var pointer: UnsafePointer<UInt8>? = nil
            var count: Int32 = 0
            f.dbus_message_iter_get_fixed_array!(&inner, &pointer, &count)
            guard let pointer, count > 0 else { return .bytes([]) }
            return .bytes(Array(UnsafeBufferPointer(start: pointer, count: Int(count))))
        }
        if element == Int32(VAULT_DBUS_TYPE_DICT_ENTRY) {
            var entries: [(DBusValue, DBusValue)] = []
            while f.dbus_message_iter_get_arg_type!(&inner) == Int32(VAULT_DBUS_TYPE_DICT_ENTRY) {
                var entry = DBusMessageIter()
                f.dbus_message_iter_recurse!(&inner, &entry)
                let pair = readAll(&entry)
                if pair.count == 2 { entries.append((pair[0], pair[1])) }
                _ = f.dbus_message_iter_next!(&inner)
            }
            return .dictionary(key: "", value: "", entries)
        }
        return .array(element: "", readAll(&inner))
    }

    /// Appends `values` to `message`; false when libdbus refuses one (out of memory, an invalid string).
    @discardableResult
    func append(_ values: [DBusValue], to message: OpaquePointer) -> Bool {
        var iterator = DBusMessageIter()
        f.dbus_message_iter_init_append!(message, &iterator)
        return values.allSatisfy { append($0, &iterator) }
    }

    private func append(_ value: DBusValue, _ iterator: inout DBusMessageIter) -> Bool {
        switch value {
        case .byte(var byte):
            return f.dbus_message_iter_append_basic!(&iterator, Int32(VAULT_DBUS_TYPE_BYTE), &byte) != 0
        case .boolean(let flag):
            var word: UInt32 = flag ? 1 : 0
            return f.dbus_message_iter_append_basic!(&iterator, Int32(VAULT_DBUS_TYPE_BOOLEAN), &word) != 0
        case .uint32(var word):
            return f.dbus_message_iter_append_basic!(&iterator, Int32(VAULT_DBUS_TYPE_UINT32), &word) != 0
        case .uint64(var word):
            return f.dbus_message_iter_append_basic!(&iterator, Int32(VAULT_DBUS_TYPE_UINT64), &word) != 0
        case .string(let text), .objectPath(let text):
            let type = value.signature == "s" ? VAULT_DBUS_TYPE_STRING : VAULT_DBUS_TYPE_OBJECT_PATH
            return text.withCString { pointer in
                var address: UnsafePointer<CChar>? = pointer
                return f.dbus_message_iter_append_basic!(&iterator, Int32(type), &address) != 0
            }
        case .bytes(let bytes):
            return container(&iterator, VAULT_DBUS_TYPE_ARRAY, "y") { inner in
                bytes.withUnsafeBufferPointer { buffer in
                    var address: UnsafePointer<UInt8>? = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)
                    return f.dbus_message_iter_append_fixed_array!(&inner, Int32(VAULT_DBUS_TYPE_BYTE), &address, Int32(buffer.count)) != 0
                }
            }
        case .array(let element, let elements):
            return container(&iterator, VAULT_DBUS_TYPE_ARRAY, element) { inner in elements.allSatisfy { append($0, &inner) } }
        case .dictionary(let key, let valueType, let entries):
            return container(&iterator, VAULT_DBUS_TYPE_ARRAY, "{" + key + valueType + "}") { inner in
                entries.allSatisfy { entry in
                    container(&inner, VAULT_DBUS_TYPE_DICT_ENTRY, nil) { pair in append(entry.0, &pair) && append(entry.1, &pair) }
                }
            }
        case .structure(let fields):
            return container(&iterator, VAULT_DBUS_TYPE_STRUCT, nil) { inner in fields.allSatisfy { append($0, &inner) } }
        case .variant(let inner):
            return container(&iterator, VAULT_DBUS_TYPE_VARIANT, inner.signature) { sub in append(inner, &sub) }
        }
    }

    private func container(
        _ iterator: inout DBusMessageIter, _ type: Int, _ signature: String?,
        _ body: (inout DBusMessageIter) -> Bool
    ) -> Bool {
        var inner = DBusMessageIter()
        let opened: Bool
        if let signature {
            opened = signature.withCString { f.dbus_message_iter_open_container!(&iterator, Int32(type), $0, &inner) != 0 }
        } else {
            opened = f.dbus_message_iter_open_container!(&iterator, Int32(type), nil, &inner) != 0
        }
        guard opened else { return false }
        let filled = body(&inner)
        return f.dbus_message_iter_close_container!(&iterator, &inner) != 0 && filled
    }
}
