/// Where and how to reach the server, resolved once by the command line from the environment:
/// the address, the CA to verify its certificate with, the proxy rules and the time budget.
public struct Endpoint: Sendable {
    /// The server's address (BAO_ADDR).
    public var address: ServerAddress
    /// A PEM file of CA certificates (BAO_CACERT), or nil.
    public var caFile: String?
    /// A hashed directory of CA certificates (BAO_CAPATH), or nil; with neither, /etc/ssl/certs.
    public var caPath: String?
    /// The namespace sent with every request (BAO_NAMESPACE), or nil.
    public var namespace: String?
    /// The proxy for https:// addresses (https_proxy), or nil.
    public var httpsProxy: ServerAddress?
    /// The hosts reached directly (no_proxy).
    public var noProxy: NoProxyRule
    /// The budget of one request, connecting to answering, in seconds.
    public var timeoutSeconds: Int

    /// An endpoint; see each property.
    public init(
        address: ServerAddress, caFile: String? = nil, caPath: String? = nil, namespace: String? = nil,
        httpsProxy: ServerAddress? = nil, noProxy: NoProxyRule = NoProxyRule(""), timeoutSeconds: Int = 10
    ) {
        self.address = address
        self.caFile = caFile
        self.caPath = caPath
        self.namespace = namespace
        self.httpsProxy = httpsProxy
        self.noProxy = noProxy
        self.timeoutSeconds = timeoutSeconds
    }

    /// The proxy a request to `address` goes through: https_proxy for an https:// address whose host no_proxy does not name.
    func proxy(for address: ServerAddress) -> ServerAddress? {
        guard address.transport == .https, let httpsProxy, !noProxy.matches(address.host) else { return nil }
        return httpsProxy
    }
}

/// The hosts of `no_proxy`: comma-separated names (a leading dot or none: the name and its
/// subdomains), IP addresses, or `*` for every host.
public struct NoProxyRule: Sendable {
    private let entries: [String]

    /// Reads the variable's value.
    public init(_ text: String) {
        entries = text.split(separator: ",").map { $0.trimmingSpaces().lowercased() }.filter { !$0.isEmpty }
            .map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 }
    }

    /// Whether `host` is reached directly.
    public func matches(_ host: String) -> Bool {
        let host = host.lowercased()
        return entries.contains { $0 == "*" || host == $0 || host.hasSuffix("." + $0) }
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
