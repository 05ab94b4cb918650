import VaultCrypto

/// An answer read whole: its status, headers and body (in locked memory: it holds secrets).
struct HTTPResponse {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: SecretBytes
}

/// One request on a new connection (`Connection: close`): OpenBao's API is a few small requests per
/// command, each path read once, so no connection is kept.
enum HTTPExchange {
    /// Sends `method` `target` with `headers` (a token among them: the request is built in locked
    /// memory) and `body`, and reads the answer whole.
    static func send(
        _ method: String, _ target: String, headers: [(String, SecretBytes)], body: SecretBytes?,
        to endpoint: Endpoint
    ) throws -> HTTPResponse {
        let connection = try Connection(endpoint)
        var request = SecretBytesBuilder(capacity: 1024 + (body?.count ?? 0))
        request.append("\(method) \(target) HTTP/1.1\r\nHost: \(endpoint.address.hostHeader)\r\n")
        request.append("User-Agent: vault\r\nAccept: application/json\r\nConnection: close\r\n")
        for (name, value) in headers {
            request.append(name + ": ")
            request.append(value)
            request.append("\r\n")
        }
        if let body {
            request.append("Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n")
            request.append(body)
        } else {
            request.append("\r\n")
        }
        let bytes = request.finish()
        try bytes.withUnsafeBytes { buffer in try connection.write(buffer) }
        return try read(from: connection, address: endpoint.address.description)
    }

    /// Reads until the parser has a whole answer, growing a locked buffer.
    private static func read(from connection: Connection, address: String) throws -> HTTPResponse {
        var buffer = SecretBytes(count: 16 * 1024)
        var filled = 0
        while true {
            if filled == buffer.count {
                guard buffer.count < HTTPResponseParser.maximumHead + HTTPResponseParser.maximumBody + 4096 else {
                    throw OpenBaoError.malformedResponse(address: address, fault: .tooLarge)
                }
                let larger = SecretBytes(count: buffer.count * 2)
                larger.withUnsafeMutableBytes { target in buffer.withUnsafeBytes { target.copyMemory(from: $0) } }
                buffer = larger
            }
            let count = try buffer.withUnsafeMutableBytes { all in
                try connection.read(into: UnsafeMutableRawBufferPointer(rebasing: all[filled...]))
            }
            filled += count
            let parsed: ParsedResponse?
            do {
                parsed = try buffer.withUnsafeBytes { all in
                    try HTTPResponseParser.parse(UnsafeRawBufferPointer(rebasing: all[..<filled]), atEnd: count == 0)
                }
            } catch let fault as HTTPFault {
                throw OpenBaoError.malformedResponse(address: address, fault: fault)
            }
            if let parsed {
                var body = SecretBytesBuilder(capacity: max(parsed.body.reduce(0) { $0 + $1.count }, 1))
                buffer.withUnsafeBytes { all in for range in parsed.body { body.append(UnsafeRawBufferPointer(rebasing: all[range])) } }
                return HTTPResponse(status: parsed.status, headers: parsed.headers, body: body.finish())
            }
        }
    }
}

/// An HTTP CONNECT tunnel through a proxy to the server (https_proxy).
enum ProxyTunnel {
    /// Asks the proxy for a tunnel to `address` and reads its answer's head; throws unless it is 2xx.
    static func open(through socket: SocketStream, to address: ServerAddress, proxy: ServerAddress) throws {
        let request = "CONNECT \(address.hostHeader) HTTP/1.1\r\nHost: \(address.hostHeader)\r\n\r\n"
        try Array(request.utf8).withUnsafeBytes { buffer in try socket.write(buffer) }
        var head: [UInt8] = []
        var byte: UInt8 = 0
        // One byte at a time: what follows the head is the server's TLS, not the proxy's.
        while !head.suffix(4).elementsEqual([13, 10, 13, 10]) {
            let count = try withUnsafeMutableBytes(of: &byte) { buffer in try socket.read(into: buffer) }
            guard count == 1, head.count < HTTPResponseParser.maximumHead else {
                throw OpenBaoError.malformedResponse(address: proxy.description, fault: count == 1 ? .tooLarge : .truncated)
            }
            head.append(byte)
        }
        let parsed: ParsedResponse?
        do {
            parsed = try head.withUnsafeBytes { buffer in try HTTPResponseParser.parse(buffer, atEnd: true) }
        } catch let fault as HTTPFault {
            throw OpenBaoError.malformedResponse(address: proxy.description, fault: fault)
        }
        guard let status = parsed?.status, (200..<300).contains(status) else {
            throw OpenBaoError.proxyRefused(proxy: proxy.description, status: parsed?.status ?? 0)
        }
    }
}
