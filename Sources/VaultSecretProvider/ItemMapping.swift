import VaultCore
import VaultCrypto

/// How a Secret Service item is a vault item (docs/SECRET-SERVICE.md, "What is stored where"):
/// which attributes name its service and account, and where the rest of its attributes live
/// (sealed in the record, in the item's generic data).
enum ItemMapping {
    /// The marker that starts the generic data of an item stored through the provider.
    static let marker = "secret-service:"

    /// The vault service and account of an item with these attributes and label:
    /// - `service` (+ `username`): python keyring, go-keyring, `secret-tool store service S username U`;
    /// - `server` (+ `user`, `protocol`, `port`, `path`): git-credential-libsecret, as `protocol://server:port/path`;
    /// - anything else (Chromium's label-only items): the label, and the other attributes as the account.
    static func key(attributes: [String: String], label: String) -> (service: String, account: String) {
        if let service = attributes["service"], !service.isEmpty {
            return (service, attributes["username"] ?? "")
        }
        if let server = attributes["server"], !server.isEmpty {
            var name = (attributes["protocol"].map { $0 + "://" } ?? "") + server
            if let port = attributes["port"], !port.isEmpty, port != "0" { name += ":" + port }
            if let path = attributes["path"], !path.isEmpty { name += "/" + path }
            return (name, attributes["user"] ?? "")
        }
        let rest = attributes.filter { $0.key != "xdg:schema" }
        return (label.isEmpty ? "secret-service" : label, encode(rest))
    }

    /// The generic data that keeps `attributes` (and the content type when not text/plain).
    static func generic(attributes: [String: String], contentType: String) -> String {
        var all = attributes
        if contentType != "text/plain", !contentType.isEmpty { all["\u{0}content-type"] = contentType }
        return marker + encode(all)
    }

    /// The attributes and content type of a stored item: from its generic data when the provider
    /// stored it, else the service and username a vault command gave it.
    static func attributes(of item: ItemAttributes) -> (attributes: [String: String], contentType: String) {
        if let generic = item.details.generic, generic.hasPrefix(marker) {
            var all = decode(String(generic.dropFirst(marker.count)))
            let contentType = all.removeValue(forKey: "\u{0}content-type") ?? "text/plain"
            return (all, contentType)
        }
        var attributes = ["service": item.service]
        if !item.account.isEmpty { attributes["username"] = item.account }
        return (attributes, "text/plain")
    }

    /// The label the item shows: its vault label, or its service.
    static func label(of item: ItemAttributes) -> String { item.details.label ?? item.service }

    /// The last element of the item's object path: a digest of its key, stable across restarts and never its names.
    static func pathElement(of item: ItemAttributes) -> String {
        let digest = SHA256.hash(Array(item.service.utf8) + [0] + Array(item.account.utf8))
        let hex = Array("0123456789abcdef")
        return "i" + digest.prefix(12).map { String([hex[Int($0 >> 4)], hex[Int($0 & 15)]]) }.joined()
    }

    /// Whether an item with `stored` attributes answers a search for `wanted`: every pair present
    /// and equal; an empty search matches nothing (as KeePassXC's tests say).
    static func matches(_ stored: [String: String], _ wanted: [String: String]) -> Bool {
        !wanted.isEmpty && wanted.allSatisfy { stored[$0.key] == $0.value }
    }

    /// `k=v&k=v`, keys sorted, each part percent-encoded.
    static func encode(_ attributes: [String: String]) -> String {
        attributes.sorted { $0.key < $1.key }.map { escape($0.key) + "=" + escape($0.value) }.joined(separator: "&")
    }

    static func decode(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { continue }
            result[unescape(parts[0])] = unescape(parts[1])
        }
        return result
    }

    private static func escape(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in text.utf8 {
            if byte == UInt8(ascii: "%") || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "=") || byte < 0x20 {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func unescape(_ text: Substring) -> String {
        var out: [UInt8] = []
        var bytes = Array(text.utf8)[...]
        while let byte = bytes.popFirst() {
            if byte == UInt8(ascii: "%"), bytes.count >= 2, let value = UInt8(String(decoding: bytes.prefix(2), as: UTF8.self), radix: 16) {
                out.append(value)
                bytes = bytes.dropFirst(2)
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
