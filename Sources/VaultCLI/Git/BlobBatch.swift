#if canImport(Glibc)
import Glibc
#endif

/// One `git cat-file --batch` kept open, asked for one blob at a time (`vault exposure` reads
/// every version of the vault file through it: one git process, not one per version). git
/// flushes each answer before reading the next name, so a name is written only once the
/// answer before it is read, and neither side waits on a full pipe.
final class BlobBatch {
    private static let arguments = ["cat-file", "--batch"]
    private let process: GitProcess
    private let requests: Int32
    private let answers: BufferedReader
    private let answersEnd: Int32
    private let pipeAction: __sighandler_t?
    private var finished = false

    /// Starts git in `repository`'s work tree.
    init(_ repository: GitRepository) throws {
        let input = try PipeEnds()
        let output = try PipeEnds()
        do {
            defer {
                close(input.readEnd)
                close(output.writeEnd)
            }
            process = try GitProcess.start(
                Self.arguments, in: repository.top, environment: repository.environment,
                stdin: input.readEnd, stdout: output.writeEnd)
        } catch {
            close(input.writeEnd)
            close(output.readEnd)
            throw error
        }
        requests = input.writeEnd
        answersEnd = output.readEnd
        answers = BufferedReader(output.readEnd)
        // A git that ended early makes a write fail with EPIPE, not end vault with SIGPIPE.
        pipeAction = signal(SIGPIPE, SIG_IGN)
    }

    /// The bytes of the blob `name`, or nil when git has none (or has stopped answering).
    func blob(_ name: String) -> [UInt8]? {
        guard !finished, Self.write(Array((name + "\n").utf8), to: requests), let header = answers.readLine() else { return nil }
        let fields = header.split(separator: 0x20)
        guard fields.count == 3, let size = Int(String(decoding: fields[2], as: UTF8.self)) else { return nil }  // "<name> missing"
        var bytes = [UInt8](repeating: 0, count: size), filled = 0
        while filled < size {
            let count = bytes.withUnsafeMutableBytes { answers.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...])) }
            guard count > 0 else { return nil }
            filled += count
        }
        _ = answers.readLine()  // the newline after the contents
        return fields[1].elementsEqual("blob".utf8) ? bytes : nil
    }

    /// Ends git's input and waits for it; throws, quoting git, when it failed.
    func finish() throws {
        guard !finished else { return }
        finished = true
        close(requests)
        close(answersEnd)
        if let pipeAction { signal(SIGPIPE, pipeAction) }
        try process.finish(Self.arguments)
    }

    deinit { try? finish() }

    private static func write(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }
}
