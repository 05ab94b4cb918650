/// Why a request to an OpenBao server failed: the facts; the command line words them.
public enum OpenBaoError: Error, Equatable, Sendable {
    /// No server address: BAO_ADDR is not set.
    case noAddress
    /// BAO_ADDR (or a proxy variable) is not an address vault can use.
    case invalidAddress(variable: String, text: String)
    /// No token: neither BAO_TOKEN, an AppRole login nor ~/.vault-token gave one.
    case noToken
    /// The server could not be reached: the connection was refused or failed (`errno`).
    case unreachable(address: String, errno: Int32)
    /// The host name did not resolve (getaddrinfo's code).
    case unresolved(host: String, code: Int32)
    /// The server did not connect or answer within the timeout.
    case timedOut(address: String, step: TimedStep, seconds: Int)
    /// TLS failed: libssl missing, the CA not readable, the certificate not verified, the handshake refused.
    case tls(address: String, failure: TLSFailure)
    /// The proxy refused the tunnel (its HTTP status).
    case proxyRefused(proxy: String, status: Int)
    /// The answer is not HTTP vault can read.
    case malformedResponse(address: String, fault: HTTPFault)
    /// 403 for a token the server does not know (wrong, expired or revoked).
    case badToken(address: String)
    /// 403 for a valid token whose policies do not allow this request (`path`: the API path asked).
    case permissionDenied(path: String)
    /// 404: no secret at this path (or none at this version, or that version deleted).
    case noSuchPath(path: String, version: Int?)
    /// The secret has no field of this name; `known` are the fields it has.
    case noSuchField(path: String, field: String, known: [String])
    /// A field's value is not a string, number or boolean.
    case fieldNotText(path: String, field: String)
    /// 503 with the server sealed.
    case sealed(address: String)
    /// Another status the request did not expect.
    case unexpectedStatus(path: String, status: Int)
    /// A login or unwrap answered without the part it must hold (a token, a secret id).
    case missingInAnswer(path: String, part: String)

    /// The step that ran out of time.
    public enum TimedStep: Equatable, Sendable {
        /// Connecting (TCP connect or the proxy's tunnel).
        case connect
        /// Waiting for the answer (TLS handshake included).
        case answer
    }
}

/// What went wrong in TLS, as libssl reported it.
public struct TLSFailure: Equatable, Sendable {
    /// Which step failed.
    public enum Kind: Equatable, Sendable {
        /// libssl could not be loaded.
        case load
        /// The CA file (BAO_CACERT) or directory (BAO_CAPATH) could not be read.
        case certificateAuthority
        /// The server's certificate did not verify (against the CA, or for the host name).
        case verify
        /// The handshake failed otherwise (a TLS version below 1.2, an alert, not TLS at all).
        case handshake
    }

    /// Which step failed.
    public var kind: Kind
    /// OpenSSL's (or dlopen's) own words, shown as given and never matched.
    public var reason: String
}
