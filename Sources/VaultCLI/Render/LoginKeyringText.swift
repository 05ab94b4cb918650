#if canImport(Glibc)
import Glibc
#endif
import VaultCore

/// The words for sessions kept in the login's kernel keyring (docs/SECURITY.md, "Sessions in the kernel keyring").
enum LoginKeyringText {
    /// What `unlock` and `init` say of a new session the login's keyring keeps.
    static func unlocked(timeout: Int) -> String {
        "unlocked for this login: its shells read without a passphrase until 'vault lock' or \(DurationText.describe(timeout)) "
            + "without use (the session is in the kernel keyring)"
    }

    /// The one line that says the login's keyring could not keep a session, and where it lives instead.
    static func unavailable(_ problem: LoginKeyringProblem) -> String {
        "the kernel keyring is not available here (\(reason(problem))); the session lives only in its token: "
            + "set VAULT_SESSION to it, as \(carry) does"
    }

    /// How a shell takes a session that only its token holds, without the token on the screen.
    static let carry = #"eval "$(vault unlock --export)""#

    /// What `init` says, once, where no session can be kept: why every command will ask, and the way out.
    static func noSessionAfterInit(_ problem: LoginKeyringProblem) -> String {
        "this login keeps no unlock session (\(reason(problem))), so each command asks for the passphrase; "
            + "unlock this shell once with: \(carry)"
    }

    /// Why a session started here would live only in its token (`unlock` on a terminal then starts none).
    static func noSessionPlace(keyringOff: Bool, problem: LoginKeyringProblem?) -> String? {
        if keyringOff { return "the kernel keyring is turned off here (VAULT_NO_KEYRING or CI)" }
        return problem.map(reason)
    }

    /// `unlock` on a terminal where no session can be kept: it prints no token there (the scrollback would keep it).
    static func tokenNotShown(_ reason: String) -> CommandFailure {
        CommandFailure(
            .usage, "a session here would live only in its token (\(reason)), and vault prints no token on a terminal",
            hint: "carry a session into this shell with: \(carry)")
    }

    /// Why the keyring calls failed, in a few words.
    static func reason(_ problem: LoginKeyringProblem) -> String {
        switch problem {
        case .blocked(let error):
            return "its system calls are refused (\(String(cString: strerror(error)))), as a container's seccomp filter does"
        case .noLoginSessionKeyring:
            return "this login has no session keyring of its own (pam_keyinit starts one)"
        case .failed(let operation, let error):
            return "\(operation) failed: \(String(cString: strerror(error)))"
        }
    }
}
