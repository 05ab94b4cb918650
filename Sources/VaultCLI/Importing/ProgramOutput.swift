#if canImport(Glibc)
import Glibc
#endif
import VaultCore
import VaultCrypto

/// What a program that decrypts for vault (gpg, keepassxc-cli) wrote: its standard output read
/// through a pipe into locked memory (never a file), its standard error, and its exit status.
struct ProgramOutput {
    let status: Int32
    let stdout: SecretBytes
    let stderr: [UInt8]

    /// The largest output kept: a password store entry or a whole database export.
    static let limit = ImportLimits.maxExportBytes

    /// Runs `argv` (found on PATH) with vault's environment, `input` on its standard input through
    /// a pipe (nil: vault's own, so a pinentry can reach the terminal), and waits for it.
    static func run(_ argv: [String], input: SecretBytes? = nil, environment: [String: String]) throws -> ProgramOutput {
        let stdout = try PipeEnds(), stderr = try PipeEnds()
        let stdin = try input.map { _ in try PipeEnds() }
        var variables = environment.map { (name: $0.key, value: Array($0.value.utf8)) }
        let child: ChildProcess
        do {
            defer {
                close(stdout.writeEnd)
                close(stderr.writeEnd)
                if let stdin { close(stdin.readEnd) }
            }
            child = try ChildProcess.spawn(
                argv, environment: &variables,
                streams: ChildStreams(stdin: stdin?.readEnd, stdout: stdout.writeEnd, stderr: stderr.writeEnd))
        }
        if let stdin, let input {
            // A password is far smaller than the pipe: written whole before the output is read.
            input.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = write(stdin.writeEnd, bytes.baseAddress! + offset, bytes.count - offset)
                    if written < 0, errno == EINTR { continue }
                    guard written > 0 else { break }
                    offset += written
                }
            }
            close(stdin.writeEnd)
        }
        let output = SecretStream.read(stdout.readEnd, limit: limit)
        close(stdout.readEnd)
        let messages = SecretStream.read(stderr.readEnd, limit: 1 << 16).copyBytes()
        close(stderr.readEnd)
        return ProgramOutput(status: child.wait(), stdout: output, stderr: messages)
    }
}
