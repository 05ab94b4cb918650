#if canImport(Glibc)
import Glibc
#endif

import VaultCore
import VaultCrypto

/// The whole program: parse argv against the table, run the command, turn
/// any error into its message and exit code.
public enum VaultMain {
    /// Runs vault with `arguments` (argv without the program name) and returns
    /// the exit code; `programName` (argv[0]) picks a credential helper when it names one.
    public static func run(
        _ arguments: [String], invokedAs programName: String = "vault",
        environment: [String: String] = ProcessEnvironment.current
    ) -> Int32 {
        ProcessHardening.disableCoreDumps()
        CryptoLibrary.initializeForOneCommand()
        var terminal = Terminal()
        guard let arguments = HelperProgram.arguments(invokedAs: programName, arguments) else {
            return Status.success.exitCode
        }
        do {
            let parsed = try Parser.parse(arguments)
            terminal.quiet = parsed.flag(GlobalOptions.quiet.name)
            try parsed.command.run(Invocation(arguments: parsed, environment: environment, terminal: terminal))
            return Status.success.exitCode
        } catch let failure as ReportedFailure {
            return failure.status.exitCode
        } catch let child as ChildExitStatus {
            if let failure = child.failure { report(failure, on: terminal) }
            return child.code
        } catch {
            return report(error, on: terminal)
        }
    }

    /// Runs vault with argv as the kernel gave it (without the program name).
    /// Refuses an argument that is not UTF-8: decoding would replace its bad
    /// bytes with U+FFFD, and two different names would become one item.
    public static func run(rawArguments: [[UInt8]], invokedAs programName: String = "vault") -> Int32 {
        for (position, bytes) in rawArguments.enumerated() where String(validating: bytes, as: UTF8.self) == nil {
            return report(
                UsageError(
                    "argument \(position + 1) is not valid UTF-8: \(quoted(bytes: bytes))",
                    hint: "names and option values must be UTF-8 text; give a binary secret on stdin or with --secret-file"),
                on: Terminal())
        }
        return run(rawArguments.map { String(decoding: $0, as: UTF8.self) }, invokedAs: programName)
    }

    /// This process's argv without the program name, as bytes.
    public static var processArguments: [[UInt8]] {
        (1..<Int(CommandLine.argc)).compactMap { index in
            CommandLine.unsafeArgv[index].map {
                Array(UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: strlen($0)))
            }
        }
    }

    /// Prints the error's message, details and hint; returns its exit code.
    @discardableResult
    private static func report(_ error: Error, on terminal: Terminal) -> Int32 {
        let report = ErrorReport(error)
        terminal.diagnostics.report(report)
        return report.status.exitCode
    }
}

/// The environment of this process, as a dictionary.
public enum ProcessEnvironment {
    public static var current: [String: String] {
        var count = 0
        while environ[count] != nil { count += 1 }
        var result = [String: String](minimumCapacity: count)
        for entry in UnsafeBufferPointer(start: environ, count: count) {
            guard let entry, let equals = strchr(entry, Int32(UInt8(ascii: "="))) else { continue }
            let name = UnsafeRawBufferPointer(start: entry, count: equals - entry)
            result[String(decoding: name, as: UTF8.self)] = String(cString: equals + 1)
        }
        return result
    }
}
