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
    public static func run(_ arguments: [String], invokedAs programName: String = "vault",
                           environment: [String: String] = ProcessEnvironment.current) -> Int32 {
        ProcessHardening.disableCoreDumps()
        let terminal = Terminal()
        guard let arguments = HelperProgram.arguments(invokedAs: programName, arguments) else {
            return Status.success.exitCode
        }
        do {
            let parsed = try Parser.parse(arguments)
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

    /// Prints the error's message, details and hint; returns its exit code.
    @discardableResult
    private static func report(_ error: Error, on terminal: Terminal) -> Int32 {
        let report = ErrorReport(error)
        terminal.writeErr("vault: error: \(report.message)\n")
        for line in report.details { terminal.writeErr("vault:   \(line)\n") }
        if let hint = report.hint { terminal.writeErr("vault: hint: \(hint)\n") }
        return report.status.exitCode
    }
}

/// The environment of this process, as a dictionary.
public enum ProcessEnvironment {
    public static var current: [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }
}
