import VaultCore
import VaultCrypto
import VaultOpenBao

/// The OpenBao server and token of one command, from the environment (read once, when the first
/// `openbao://` reference or the importer needs them): `BAO_ADDR`, `BAO_CACERT`, `BAO_CAPATH`,
/// `BAO_NAMESPACE`, `BAO_CLIENT_TIMEOUT`, `BAO_KV1_MOUNTS`, `https_proxy`/`no_proxy`; the token from `BAO_TOKEN`, else
/// an AppRole login (`BAO_APPROLE_ROLE_ID` with `BAO_APPROLE_SECRET_ID` or `…_FILE`, wrapped when
/// `BAO_APPROLE_SECRET_ID_WRAPPED` is set), else the token helper's file `~/.vault-token`.
/// HashiCorp's `VAULT_ADDR` and `VAULT_TOKEN` are not read: `VAULT_` is vault's own namespace (docs/OPENBAO.md).
struct OpenBaoAccess {
    let environment: [String: String]

    init(_ invocation: Invocation) {
        environment = invocation.environment
    }

    /// A client with its token: logs in with AppRole when that is how the token comes.
    func client() throws -> OpenBaoClient {
        let client = try loggedIn()
        return OpenBaoClient(endpoint: client.endpoint, token: client.token, kvVersion1Mounts: kvVersion1Mounts)
    }

    /// The mounts `BAO_KV1_MOUNTS` names (separated by commas): KV v1, where every other mount is KV v2.
    var kvVersion1Mounts: Set<String> {
        Set((value(.baoKV1Mounts) ?? "").split(separator: ",").map { String($0.filter { !$0.isWhitespace }) }.filter { !$0.isEmpty })
    }

    /// A client with its token, from BAO_TOKEN, an AppRole login or the token helper's file.
    private func loggedIn() throws -> OpenBaoClient {
        let endpoint = try self.endpoint()
        if let token = value(.baoToken) {
            return OpenBaoClient(endpoint: endpoint, token: try headerSafe(SecretBytes(Array(token.utf8)), "BAO_TOKEN"))
        }
        if let roleID = value(.baoAppRoleRoleID) {
            var secretID = try appRoleSecretID()
            if isSet(.baoAppRoleSecretIDWrapped) {
                secretID = try OpenBaoClient(endpoint: endpoint, token: headerSafe(secretID, "the wrapped secret id")).unwrap(
                    field: "secret_id")
            }
            let mount = value(.baoAppRoleMount) ?? "approle"
            let token = try OpenBaoClient(endpoint: endpoint, token: nil).appRoleLogin(mount: mount, roleID: roleID, secretID: secretID)
            return OpenBaoClient(endpoint: endpoint, token: token)
        }
        if let home = value(.home), let token = try? SecretFile.read(path: home + "/.vault-token", limit: 4096) {
            return OpenBaoClient(endpoint: endpoint, token: try headerSafe(token.trimmingLineEnd, "~/.vault-token"))
        }
        throw OpenBaoError.noToken
    }

    /// The server's address and how to reach it.
    func endpoint() throws -> Endpoint {
        guard let text = value(.baoAddress) else { throw OpenBaoError.noAddress }
        guard let address = ServerAddress(text) else { throw OpenBaoError.invalidAddress(variable: "BAO_ADDR", text: text) }
        let proxyVariable = [EnvironmentVariable.httpsProxy, .httpsProxyUpper].first { value($0) != nil }
        let proxy = try proxyVariable.map { name in
            guard let proxy = ServerAddress(value(name)!), proxy.transport == .http else {
                throw OpenBaoError.invalidAddress(variable: name.name, text: value(name)!)
            }
            return proxy
        }
        let timeoutText = value(.baoClientTimeout)
        let timeout = timeoutText.map { $0.hasSuffix("s") ? String($0.dropLast()) : $0 }.flatMap { Int($0) }
        if let timeoutText, timeout == nil || timeout! < 1 || timeout! > 3600 {
            throw UsageError(
                "BAO_CLIENT_TIMEOUT \(quoted(timeoutText)) is not a number of seconds",
                hint: "set it to a whole number of seconds from 1, e.g. 10")
        }
        if let namespace = value(.baoNamespace), namespace.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            throw UsageError("BAO_NAMESPACE holds a control character", hint: "set it to the namespace's path, e.g. team-a/ci")
        }
        return Endpoint(
            address: address, caFile: value(.baoCACert), caPath: value(.baoCAPath), namespace: value(.baoNamespace),
            httpsProxy: proxy, noProxy: NoProxyRule(value(.noProxy) ?? value(.noProxyUpper) ?? ""),
            timeoutSeconds: timeout ?? 10)
    }

    /// The AppRole secret id: `BAO_APPROLE_SECRET_ID_FILE`'s contents, else `BAO_APPROLE_SECRET_ID`.
    private func appRoleSecretID() throws -> SecretBytes {
        if let path = value(.baoAppRoleSecretIDFile) {
            return try SecretFile.read(path: path, limit: 4096).trimmingLineEnd
        }
        guard let secretID = value(.baoAppRoleSecretID) else {
            throw UsageError(
                "BAO_APPROLE_ROLE_ID is set but no secret id is",
                hint: "set BAO_APPROLE_SECRET_ID_FILE to a file that holds it (or BAO_APPROLE_SECRET_ID)")
        }
        return SecretBytes(Array(secretID.utf8))
    }

    /// `token` when it can be sent as a header: no space or control character (a line break would
    /// end the header and start another); else a usage error naming where it came from, not showing it.
    private func headerSafe(_ token: SecretBytes, _ origin: String) throws -> SecretBytes {
        let safe = token.withUnsafeBytes { bytes in bytes.allSatisfy { $0 > 0x20 && $0 != 0x7F } }
        guard safe else {
            throw UsageError(
                "\(origin) holds a space or control character, which a token cannot", hint: "check how it was set: a token is one word")
        }
        return token
    }

    private func value(_ variable: EnvironmentVariable) -> String? {
        environment[variable].flatMap { $0.isEmpty ? nil : $0 }
    }

    private func isSet(_ variable: EnvironmentVariable) -> Bool {
        guard let text = value(variable) else { return false }
        return !["0", "false", "no"].contains(text.lowercased())
    }
}

extension SecretBytes {
    /// The bytes less trailing CR, LF, spaces and tabs (a token file written by `echo` or an editor).
    fileprivate var trimmingLineEnd: SecretBytes {
        withUnsafeBytes { bytes in
            var end = bytes.count
            while end > 0, [0x0A, 0x0D, 0x20, 0x09].contains(bytes[end - 1]) { end -= 1 }
            return end == bytes.count ? self : SecretBytes(UnsafeRawBufferPointer(rebasing: bytes[..<end]))
        }
    }
}
