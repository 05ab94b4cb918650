import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A software TPM 2.0 for one test: Debian's swtpm in socket mode on two free ports, with a
/// fresh state directory (a fresh state is another machine's TPM), stopped by `stop()`.
/// Missing swtpm or tpm2-tools fails the test naming the packages: `make deps` installs them.
final class SoftwareTPM: @unchecked Sendable {
    static let packages = "swtpm swtpm-tools tpm2-tools (apt-get install swtpm swtpm-tools tpm2-tools, or make deps)"

    let stateDirectory: String
    let port: UInt16
    private let pidFile: String

    /// The TCTI string vault and tpm2-tools take (`VAULT_TPM`, `TPM2TOOLS_TCTI`).
    var tcti: String { "swtpm:host=127.0.0.1,port=\(port)" }

    /// Starts swtpm; throws with the package names when it or tpm2-tools is missing.
    init() throws {
        for tool in ["/usr/bin/swtpm", "/usr/bin/tpm2_pcrextend"] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw SoftwareTPMError("\(tool) is missing; the TPM tests need \(SoftwareTPM.packages)")
        }
        stateDirectory = FileManager.default.temporaryDirectory.path + "/vault-test-swtpm-" + UUID().uuidString
        try FileManager.default.createDirectory(
            atPath: stateDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        pidFile = stateDirectory + "/swtpm.pid"
        var lastError = ""
        // A port found free may be taken before swtpm binds it: try a few.
        for _ in 0..<5 {
            // The swtpm TCTI reaches the control channel on the next port.
            let server = try SoftwareTPM.freePort()
            let control = server &+ 1
            // swtpm's --daemon needs an absolute state directory; it returns once both sockets listen.
            let result = SoftwareTPM.run(
                "/usr/bin/swtpm",
                [
                    "socket", "--log", "file=\(stateDirectory)/swtpm.log", "--tpm2", "--server",
                    "type=tcp,port=\(server),bindaddr=127.0.0.1",
                    "--ctrl", "type=tcp,port=\(control),bindaddr=127.0.0.1",
                    "--tpmstate", "dir=\(stateDirectory)", "--flags", "startup-clear",
                    "--daemon", "--pid", "file=\(pidFile)"
                ], in: stateDirectory)
            if result.status == 0 {
                port = server
                try tool("tpm2_getrandom", ["4"])
                return
            }
            lastError = result.output
        }
        throw SoftwareTPMError("swtpm did not start: \(lastError)")
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: stateDirectory)
    }

    /// Stops swtpm (the process this instance started, by its pid file).
    func stop() {
        guard let text = try? String(contentsOfFile: pidFile, encoding: .utf8),
            let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { return }
        // swtpm ends on SIGTERM only between commands; its state directory is thrown away anyway.
        kill(pid, SIGKILL)
        try? FileManager.default.removeItem(atPath: pidFile)
    }

    /// Runs a tpm2-tools command against this TPM; throws with its output when it fails.
    func tool(_ name: String, _ arguments: [String]) throws {
        let result = SoftwareTPM.run(
            "/usr/bin/" + name, arguments, in: stateDirectory, environment: ["TPM2TOOLS_TCTI": tcti, "TSS2_LOG": "all+none"])
        guard result.status == 0 else {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: stateDirectory)) ?? []
            let log = files.map { $0 + ": " + ((try? String(contentsOfFile: stateDirectory + "/" + $0, encoding: .utf8)) ?? "") }.joined(
                separator: "; ")
            throw SoftwareTPMError("\(name) \(arguments.joined(separator: " ")) failed: \(result.output); swtpm's log: \(log)")
        }
    }

    /// Extends PCR `index` of the sha256 bank: the machine's state changes.
    func extendPCR(_ index: Int) throws {
        try tool("tpm2_pcrextend", ["\(index):sha256=" + String(repeating: "ab", count: 32)])
    }

    /// Runs `program` as the sandboxes run vault (Foundation's Process waits forever for a
    /// daemonizing swtpm under the test runner); its output goes through a file in the state directory.
    private static func run(
        _ program: String, _ arguments: [String], in directory: String,
        environment: [String: String] = [:]
    ) -> (status: Int32, output: String) {
        let output = directory + "/output-" + UUID().uuidString
        FileManager.default.createFile(atPath: output, contents: nil)
        let merged = ["PATH": "/usr/bin:/bin"].merging(environment) { $1 }
        guard
            let status = try? Sandbox.spawn(
                program, arguments, environment: merged, directory: directory,
                stdin: "/dev/null", stdout: output, stderr: output)
        else { return (-1, "cannot run \(program)") }
        return (status, String(decoding: FileManager.default.contents(atPath: output) ?? Data(), as: UTF8.self))
    }

    /// A TCP port on 127.0.0.1 that nothing listens on now (the kernel picks it).
    private static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SoftwareTPMError("socket: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw SoftwareTPMError("bind: errno \(errno)") }
        return UInt16(bigEndian: address.sin_port)
    }
}

struct SoftwareTPMError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
