import Foundation

extension Sandbox {
    /// Puts `git-credential-vault` and `docker-credential-vault`, links to the
    /// built binary as `make install` makes them, in a bin directory first on
    /// PATH, and keeps git away from the machine's own config and prompts.
    func linkHelpers() throws {
        let bin = path("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        for name in ["git-credential-vault", "docker-credential-vault"] {
            try FileManager.default.createSymbolicLink(atPath: bin + "/" + name, withDestinationPath: Sandbox.vaultBinary)
        }
        environment["PATH"] = bin + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        environment["GIT_TERMINAL_PROMPT"] = "0"
    }

    /// Runs a shell script in the sandbox (stdin from `stdin`).
    func shell(_ script: String, stdin: String = "") throws -> RunResult {
        try run("/bin/sh", ["-c", script], stdin: Array(stdin.utf8))
    }
}
