internal import CTLS
#if canImport(Glibc)
import Glibc
#endif

/// One connection to a server: a socket, and TLS over it for an `https://` address.
final class Connection {
    private let socket: SocketStream
    private var tls: OpaquePointer?
    private let deadline: Deadline

    /// Connects to `endpoint`'s server (through its proxy, when one applies) and starts TLS for `https://`.
    init(_ endpoint: Endpoint) throws {
        let address = endpoint.address
        deadline = Deadline(seconds: endpoint.timeoutSeconds)
        switch address.transport {
        case .unix(let path):
            socket = try SocketStream.connect(unixPath: path, deadline: deadline, address: address.description)
        case .http, .https:
            if let proxy = endpoint.proxy(for: address) {
                socket = try SocketStream.connect(host: proxy.host, port: proxy.port, deadline: deadline, address: proxy.description)
                try ProxyTunnel.open(through: socket, to: address, proxy: proxy)
            } else {
                socket = try SocketStream.connect(host: address.host, port: address.port, deadline: deadline, address: address.description)
            }
        }
        guard address.transport == .https else { return }
        var failure = VaultTLSFailure()
        let connection = vault_tls_connect(socket.descriptor, address.host, endpoint.caFile, endpoint.caPath, &failure)
        guard let connection else { throw Connection.error(failure, address: address.description, deadline: deadline) }
        tls = connection
    }

    deinit { vault_tls_free(tls) }

    /// Reads what is there: the count, 0 at the end of the stream.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let tls else { return try socket.read(into: buffer) }
        var failure = VaultTLSFailure()
        let count = vault_tls_read(tls, buffer.baseAddress, buffer.count, &failure)
        guard count >= 0 else { throw Connection.error(failure, address: socket.address, deadline: deadline) }
        return count
    }

    /// Writes every byte.
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard let tls else { return try socket.write(bytes) }
        var failure = VaultTLSFailure()
        guard vault_tls_write(tls, bytes.baseAddress, bytes.count, &failure) == 0 else {
            throw Connection.error(failure, address: socket.address, deadline: deadline)
        }
    }

    private static func error(_ failure: VaultTLSFailure, address: String, deadline: Deadline) -> OpenBaoError {
        let reason = withUnsafeBytes(of: failure.reason) { buffer in
            String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
        }
        switch Int(failure.kind) {
        case VAULT_TLS_TIMEOUT: return .timedOut(address: address, step: .answer, seconds: deadline.seconds)
        case VAULT_TLS_IO: return .unreachable(address: address, errno: failure.code)
        case VAULT_TLS_LOAD: return .tls(address: address, failure: TLSFailure(kind: .load, reason: reason))
        case VAULT_TLS_CA: return .tls(address: address, failure: TLSFailure(kind: .certificateAuthority, reason: reason))
        case VAULT_TLS_VERIFY: return .tls(address: address, failure: TLSFailure(kind: .verify, reason: reason))
        default: return .tls(address: address, failure: TLSFailure(kind: .handshake, reason: reason))
        }
    }
}
