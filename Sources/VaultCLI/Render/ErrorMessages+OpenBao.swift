#if canImport(Glibc)
import Glibc
#endif
import VaultCore
import VaultOpenBao

// The words for what went wrong reaching an OpenBao server, and the exit code of each
// (docs/OPENBAO.md lists them): a fact of VaultOpenBao's, said once, here.

extension OpenBaoError {
    /// The exit code's status: 30 a policy's refusal, 44 no such path or field, 51 a token the server
    /// does not know, 36 a sealed server, 32 a certificate that does not verify, 53 no server answering
    /// in time, 2 a setting vault cannot use, 1 anything else.
    var status: Status {
        switch self {
        case .permissionDenied: return .missingEntitlement
        case .noSuchPath, .noSuchField: return .itemNotFound
        case .badToken, .noToken: return .authFailed
        case .sealed: return .interactionNotAllowed
        case .tls(_, let failure): return failure.kind == .verify ? .verifyFailed : .failure
        case .unreachable, .unresolved, .timedOut, .proxyRefused: return .notAvailable
        case .noAddress, .invalidAddress: return .usage
        case .malformedResponse, .fieldNotText, .unexpectedStatus, .missingInAnswer: return .failure
        }
    }

    /// The one line that says what happened (no token or secret ever in it).
    var message: String {
        switch self {
        case .noAddress: return "no OpenBao server: BAO_ADDR is not set"
        case .invalidAddress(let variable, let text):
            return "\(variable) \(quoted(ItemOutput.printable(text))) is not an address vault can use"
        case .noToken: return "no OpenBao token: BAO_TOKEN, an AppRole login and ~/.vault-token give none"
        case .unreachable(let address, let code):
            return "the OpenBao server at \(address) cannot be reached: \(String(cString: strerror(code)))"
        case .unresolved(let host, let code):
            return "the host \(quoted(host)) of the OpenBao server does not resolve: \(String(cString: gai_strerror(code)))"
        case .timedOut(let address, let step, let seconds):
            return "the OpenBao server at \(address) did not \(step == .connect ? "accept the connection" : "answer") within \(seconds) s"
        case .tls(let address, let failure):
            switch failure.kind {
            case .load: return "TLS to \(address) needs OpenSSL's libssl, which did not load: \(failure.reason)"
            case .certificateAuthority: return "the CA certificates for \(address) cannot be read: \(failure.reason)"
            case .verify: return "the certificate of the OpenBao server at \(address) is not trusted: \(failure.reason)"
            case .handshake: return "TLS with the OpenBao server at \(address) failed: \(failure.reason)"
            }
        case .proxyRefused(let proxy, let status): return "the proxy \(proxy) refused the tunnel (HTTP \(status))"
        case .malformedResponse(let address, let fault): return "the answer of \(address) is not HTTP vault can read (\(fault.words))"
        case .badToken(let address): return "the OpenBao server at \(address) does not accept the token (wrong, expired or revoked)"
        case .permissionDenied(let path): return "the OpenBao token may not read \(quoted(path)) (permission denied by its policies)"
        case .noSuchPath(let path, let version):
            return "OpenBao has no secret at \(quoted(path))" + (version.map { " in version \($0) (or it is deleted)" } ?? "")
        case .noSuchField(let path, let field, let known):
            return "the OpenBao secret \(quoted(path)) has no field \(quoted(field))"
                + (known.isEmpty ? "" : "; it has \(known.sorted().map(quoted).joined(separator: ", "))")
        case .fieldNotText(let path, let field): return "the field \(quoted(field)) of the OpenBao secret \(quoted(path)) is not text"
        case .sealed(let address): return "the OpenBao server at \(address) is sealed"
        case .unexpectedStatus(let path, let status): return "OpenBao answered HTTP \(status) to \(quoted(path))"
        case .missingInAnswer(let path, let part): return "OpenBao's answer to \(quoted(path)) has no \(part)"
        }
    }

    /// What to do about it.
    var hint: String {
        switch self {
        case .noAddress: return "set BAO_ADDR to the server's address, e.g. https://openbao.example:8200"
        case .invalidAddress: return "write http://HOST:PORT, https://HOST:PORT or unix:///PATH"
        case .noToken: return "set BAO_TOKEN, or BAO_APPROLE_ROLE_ID with BAO_APPROLE_SECRET_ID_FILE (see docs/OPENBAO.md)"
        case .unreachable, .unresolved: return "check BAO_ADDR and that the server runs ('bao status')"
        case .timedOut: return "check BAO_ADDR, the network and proxy; BAO_CLIENT_TIMEOUT sets the seconds to wait"
        case .tls(_, let failure) where failure.kind == .verify || failure.kind == .certificateAuthority:
            return "set BAO_CACERT to the CA's PEM file (or BAO_CAPATH to a hashed directory) that signed the server's certificate"
        case .tls: return "check that BAO_ADDR's scheme matches the server's listener (https:// for TLS, TLS 1.2 or later)"
        case .proxyRefused: return "check https_proxy, or name the server in no_proxy to reach it directly"
        case .malformedResponse: return "check that BAO_ADDR names an OpenBao server, not another service"
        case .badToken: return "log in again ('bao login') or set a valid BAO_TOKEN"
        case .permissionDenied: return "ask for a policy that grants read on the path, or fix the reference"
        case .noSuchPath: return "list what exists with 'bao kv list', or fix the reference's mount and path"
        case .noSuchField: return "fix the field after '#' in the reference"
        case .fieldNotText: return "store the field as a string ('bao kv put PATH FIELD=VALUE')"
        case .sealed: return "unseal it ('bao operator unseal') or ask its operators"
        case .unexpectedStatus, .missingInAnswer: return "check the server's logs; 'bao kv get' shows what the server says"
        }
    }
}

extension HTTPFault {
    fileprivate var words: String {
        switch self {
        case .statusLine: return "no status line"
        case .header: return "a malformed header"
        case .chunk: return "a malformed chunk"
        case .transferEncoding: return "an unknown transfer coding"
        case .tooLarge: return "too large"
        case .truncated: return "it ended early"
        case .body: return "the body is not JSON"
        }
    }
}

extension ErrorReport {
    static func describe(_ error: OpenBaoError) -> ErrorReport {
        ErrorReport(status: error.status, message: error.message, hint: error.hint)
    }
}
