/// Where an OpenBao server listens, from `BAO_ADDR`: `http://HOST[:PORT]`, `https://HOST[:PORT]`
/// (a name, an IPv4 address, or an IPv6 address in brackets; the port 80 or 443 when not given),
/// or `unix:///PATH` for a local OpenBao Agent or Proxy listening on a socket.
public struct ServerAddress: Equatable, Sendable, CustomStringConvertible {
    /// How the server is reached.
    public enum Transport: Equatable, Sendable {
        /// Plain HTTP over TCP.
        case http
        /// HTTP over TLS over TCP.
        case https
        /// Plain HTTP over a Unix domain socket at this path.
        case unix(String)
    }

    /// How the server is reached.
    public let transport: Transport
    /// The host name or address (without brackets); "localhost" for a socket.
    public let host: String
    /// The TCP port (0 for a socket).
    public let port: UInt16

    /// Parses an address; nil for anything but the three forms above (a path after the port, a
    /// user, a query or a fragment included: OpenBao's API is at /v1 of the server's root).
    public init?(_ text: String) {
        if text.hasPrefix("unix://") {
            let path = String(text.dropFirst("unix://".count))
            guard path.hasPrefix("/"), path.utf8.count < 108, !path.utf8.contains(0) else { return nil }
            transport = .unix(path)
            host = "localhost"
            port = 0
            return
        }
        let rest: Substring
        if text.hasPrefix("https://") {
            transport = .https
            rest = text.dropFirst("https://".count)
        } else if text.hasPrefix("http://") {
            transport = .http
            rest = text.dropFirst("http://".count)
        } else {
            return nil
        }
        var authority = rest
        if authority.hasSuffix("/") { authority = authority.dropLast() }
        guard !authority.isEmpty, !authority.contains(where: { "/?#@ \t".contains($0) }) else { return nil }
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                portText = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon])
            portText = authority[authority.index(after: colon)...]
        } else {
            host = String(authority)
        }
        guard !host.isEmpty else { return nil }
        if let portText {
            guard !portText.isEmpty, portText.allSatisfy(\.isASCII), let number = UInt16(portText), number > 0 else { return nil }
            port = number
        } else {
            port = transport == .https ? 443 : 80
        }
    }

    /// The address as written back: scheme, host and port.
    public var description: String {
        switch transport {
        case .unix(let path): return "unix://" + path
        case .http, .https:
            let shownHost = host.contains(":") ? "[\(host)]" : host
            return (transport == .https ? "https://" : "http://") + shownHost + ":\(port)"
        }
    }

    /// The Host header's value.
    var hostHeader: String {
        if case .unix = transport { return "localhost" }
        return (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
    }
}
