#if canImport(Glibc)
import Glibc
#endif
import VaultCore

/// `vault redact`'s options.
struct RedactArguments: CommandArguments {

    static let options: [OptionSpec] = [ScanArguments.scanGroups, ScanArguments.scanReferences]

    /// Every --group given: the groups whose secrets are masked.
    var groups: [String]
    /// Every --ref given: references whose values are masked too (alone, without --group).
    var references: [String]

    init(_ options: OptionReader) {
        groups = options.values(ItemSelection.group)
        references = options.values(ScanArguments.ref)
    }
}

/// `vault redact`: stdin to stdout through the masker of `vault run`. The
/// secrets are loaded before the first byte of stdin is read, so a failure
/// prints nothing of the input (fails closed).
enum RedactCommand {
    private static let bufferSize = 1 << 18

    static func run(_ arguments: RedactArguments, _ invocation: Invocation) throws {
        var secrets = try ReferencedSecrets.resolve(arguments.references, invocation, action: "nothing was read from stdin").map(\.secret)
        if arguments.references.isEmpty || !arguments.groups.isEmpty {
            secrets += try ReadableSecrets(groups: arguments.groups, invocation, ifNone: "the stream passes through unmasked").items.map(
                \.secret)
        }
        let patterns = MaskPatterns(secrets: secrets)
        invocation.terminal.noteUnmaskedSecrets(patterns)
        // When stdin and stdout are pipes, room for a whole read in each means
        // fewer, larger reads and writes (F_SETPIPE_SZ, 1031, is not exported by Glibc;
        // it fails harmlessly on anything else).
        for fd in [STDIN_FILENO, STDOUT_FILENO] { _ = fcntl(fd, 1031, Int32(bufferSize)) }
        var stream = MaskingStream(patterns)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        var delivered = true
        let output: (UnsafeRawBufferPointer) -> Void = { bytes in
            if delivered { delivered = RelayedStream.write(bytes, to: STDOUT_FILENO) }
        }
        while delivered {
            let count = read(STDIN_FILENO, buffer.baseAddress, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                if count < 0 { throw VaultError.io(path: "stdin", operation: .read, errno: errno) }
                break
            }
            stream.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), output: output)
        }
        stream.finish(output: output)
        guard delivered else { throw VaultError.io(path: "stdout", operation: .write, errno: errno) }
    }
}
