import VaultCore
import VaultCrypto
#if canImport(Glibc)
import Glibc
#endif

/// Unlocking through the program the config key secret-service-prompt names (systemd-ask-password,
/// or any program that takes the question as its one argument and prints the passphrase on a line):
/// the provider's answer to a client's `Prompt` after `Unlock` (docs/SECRET-SERVICE.md).
enum SecretServicePrompt {
    /// Asks through `program` and starts an unlock session as `vault unlock` does (kept in the login's
    /// keyring where it can be, so the provider's next open finds it); false when the program fails,
    /// prints nothing, or the passphrase does not open the vault.
    static func unlock(program: String, _ invocation: Invocation) -> Bool {
        var access = VaultAccess(invocation)
        let question = SecretServiceText.question(access.location.path)
        access.askedPassphrase = {
            guard let typed = ask(program, question: question, environment: invocation.environment) else {
                throw CommandFailure.interactionNotAllowed(reason: "\(program) gave no passphrase")
            }
            return typed
        }
        return (try? UnlockedSession.extendOrStart(access, timeout: Vault.defaultSessionTimeout)) != nil
    }

    /// Runs `program QUESTION` and returns the first line it prints; nil when it fails or prints none.
    static func ask(_ program: String, question: String, environment: [String: String]) -> SecretBytes? {
        guard let pipe = try? PipeEnds() else { return nil }
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { if null >= 0 { close(null) } }
        var variables = environment.map { (name: $0.key, value: Array($0.value.utf8)) }
        var streams = ChildStreams()
        streams.stdin = null >= 0 ? null : nil
        streams.stdout = pipe.writeEnd
        let child = try? ChildProcess.spawn([program, question], environment: &variables, streams: streams)
        close(pipe.writeEnd)
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        defer {
            chunk.withUnsafeMutableBytes { explicit_bzero($0.baseAddress!, $0.count) }
            output.withUnsafeMutableBytes { if let base = $0.baseAddress { explicit_bzero(base, $0.count) } }
        }
        while output.count < 65536 {
            let count = read(pipe.readEnd, &chunk, chunk.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            output += chunk[0..<count]
        }
        close(pipe.readEnd)
        guard let child, child.wait() == 0 else { return nil }
        guard let line = output.split(separator: 0x0A, omittingEmptySubsequences: false).first, !line.isEmpty else { return nil }
        return SecretBytes(Array(line))
    }
}
