import VaultCore
import VaultCrypto

/// The `ExecCredential` kubectl reads from its credential plugin, made from the item of service
/// `kube:SERVER`. Its secret is a bearer token (one line), or a client certificate: PEM text with
/// the certificate (then any intermediate certificates) and its private key, in one file as
/// `kubectl config set-credentials --embed-certs` takes them apart.
enum KubeExecCredential {
    static let servicePrefix = "kube:"
    static let kind = "kubernetes credential"

    /// `{"apiVersion":…,"kind":"ExecCredential","status":{…}}` with `token`, or
    /// `clientCertificateData` and `clientKeyData`, and `expirationTimestamp` only when the item has an expiry.
    ///
    /// - Throws: `UsageError` when the secret is neither a one-line token nor a certificate and its key.
    static func output(_ item: Item, apiVersion: String) throws -> SecretBytes {
        var status: [SecretBytes]
        if let pem = try PEMBlocks(item.secret, service: item.attributes.service) {
            status = [
                try HelperJSON.secretMember("clientCertificateData", pem.certificates),
                try HelperJSON.secretMember("clientKeyData", pem.key)
            ]
        } else {
            status = [
                try HelperJSON.secretMember(
                    "token",
                    try ServiceCredentialItems.token(
                        of: item, what: "neither a one-line token nor a PEM certificate and key",
                        hint: "store the bearer token alone, or the client certificate's PEM followed by its private key's"))
            ]
        }
        if let expires = item.attributes.details.expires {
            status.append(HelperJSON.plain("\"expirationTimestamp\":\"\(DateText.iso(expires))\""))
        }
        let head = "{\"apiVersion\":\(ItemOutput.jsonString(apiVersion)),\"kind\":\"ExecCredential\",\"status\":{"
        return HelperJSON.plain(head).appending(HelperJSON.joined(status)).appending(HelperJSON.plain("}}\n"))
    }

    /// A client certificate's PEM text taken apart: every CERTIFICATE block, and the one private key block.
    struct PEMBlocks {
        var certificates: SecretBytes
        var key: SecretBytes

        /// Nil when the secret is not PEM (does not start with `-----BEGIN `).
        ///
        /// - Throws: `UsageError` when it is PEM without a certificate, or with no key or two.
        init?(_ secret: SecretBytes, service: String) throws {
            let begin = Array("-----BEGIN ".utf8), end = Array("-----END ".utf8)
            let parts: (certificates: [Range<Int>], keys: [Range<Int>])? = secret.withUnsafeBytes { bytes in
                var start = 0
                while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
                guard bytes[start...].starts(with: begin) else { return nil }
                var certificates: [Range<Int>] = [], keys: [Range<Int>] = []
                var blockStart: Int?
                var label: [UInt8] = []
                var lineStart = 0
                while lineStart < bytes.count {
                    let lineEnd = bytes[lineStart...].firstIndex(of: 0x0A) ?? bytes.count
                    var line = Array(bytes[lineStart..<lineEnd])
                    if line.last == 0x0D { line.removeLast() }
                    if line.starts(with: begin) {
                        blockStart = lineStart
                        label = Array(line.dropFirst(begin.count))
                    } else if line.starts(with: end), let from = blockStart, Array(line.dropFirst(end.count)) == label {
                        let range = from..<min(lineEnd + 1, bytes.count)
                        if label == Array("CERTIFICATE-----".utf8) {
                            certificates.append(range)
                        } else if label.count >= 16, Array(label.suffix(16)) == Array("PRIVATE KEY-----".utf8) {
                            keys.append(range)
                        }
                        blockStart = nil
                    }
                    lineStart = lineEnd + 1
                }
                return (certificates, keys)
            }
            guard let parts else { return nil }
            guard !parts.certificates.isEmpty, parts.keys.count == 1 else {
                throw UsageError(
                    "the secret of \(quoted(service)) is PEM text without a certificate and one private key",
                    hint: "store the client certificate's PEM followed by its private key's, as one text")
            }
            func slice(_ ranges: [Range<Int>]) -> SecretBytes {
                HelperJSON.joined(
                    ranges.map { range in secret.withUnsafeBytes { SecretBytes(UnsafeRawBufferPointer(rebasing: $0[range])) } },
                    separator: "")
            }
            certificates = slice(parts.certificates)
            key = slice(parts.keys)
        }
    }
}
