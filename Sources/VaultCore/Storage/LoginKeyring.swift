internal import CKernelKeyring
import VaultCrypto

#if canImport(Glibc)
import Glibc
#endif

/// Why this login's kernel keyring cannot keep an unlock session.
public enum LoginKeyringProblem: Error, Equatable, Sendable {
    /// The key management system calls are refused (ENOSYS, EPERM), as a container's seccomp filter does.
    case blocked(errno: Int32)
    /// The process has no session keyring of its own (no pam_keyinit started one for its login), only
    /// the user's default one, which every process of the user without a login shares.
    case noLoginSessionKeyring
    /// Another failure of a keyring call (`operation`), such as the user's key quota (EDQUOT).
    case failed(operation: String, errno: Int32)
}

/// Unlock sessions kept in the login's kernel session keyring: one `user` key per vault, named
/// `vault:session:<vault id>`, holding the session's token — what VAULT_SESSION would hold; the
/// sealed master key stays in the session file (`SessionCache`). Only the key's possessors (the
/// processes of the login, whose session keyring holds it) may read it; the kernel drops it after
/// its idle timeout, at `vault lock`, or at a reboot, and it never touches a file.
enum LoginKeyring {
    /// Possessor view, read, write, search and setattr; nothing for the user, group or others
    /// (KEY_POS_VIEW | KEY_POS_READ | KEY_POS_WRITE | KEY_POS_SEARCH | KEY_POS_SETATTR).
    static let possessorOnly: UInt32 = 0x2F00_0000

    /// A session found in the keyring.
    struct Kept {
        let keyID: Int32
        let token: String
    }

    /// Keeps `token` as the session of vault `vaultID` for `timeout` idle seconds, replacing one kept before.
    static func keep(token: String, vaultID: [UInt8], timeout: Int) throws {
        let keyring = try loginSessionKeyring()
        let keyID = try call("add_key") {
            Array(token.utf8).withUnsafeBytes { vault_add_key("user", description(vaultID), $0.baseAddress, $0.count, keyring) }
        }
        try call("setperm") { vault_keyctl_setperm(Int32(keyID), possessorOnly) }
        try keepAlive(Kept(keyID: Int32(keyID), token: token), timeout: timeout)
    }

    /// Throws the `LoginKeyringProblem` that would keep a session out of the keyring; keeps nothing.
    static func check() throws {
        _ = try loginSessionKeyring()
    }

    /// The session kept for vault `vaultID`, or nil when there is none (or no keyring to look in).
    static func find(vaultID: [UInt8]) -> Kept? {
        (try? search(vaultID: vaultID)) ?? nil
    }

    /// The session kept for vault `vaultID`, or nil when there is none; throws `LoginKeyringProblem`
    /// when there is no keyring to look in.
    static func search(vaultID: [UInt8]) throws -> Kept? {
        let keyring = try loginSessionKeyring()
        let keyID = vault_keyctl_search(keyring, "user", description(vaultID))
        guard keyID > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 128)
        defer { buffer.withUnsafeMutableBytes { explicit_bzero($0.baseAddress!, $0.count) } }
        let length = buffer.withUnsafeMutableBytes { vault_keyctl_read(Int32(keyID), $0.baseAddress, $0.count) }
        guard length > 0, length <= buffer.count else { return nil }
        return Kept(keyID: Int32(keyID), token: String(decoding: buffer[0..<length], as: UTF8.self))
    }

    /// Gives the kept session a fresh idle timeout of `timeout` seconds.
    static func keepAlive(_ kept: Kept, timeout: Int) throws {
        try call("set_timeout") { vault_keyctl_set_timeout(kept.keyID, UInt32(clamping: timeout)) }
    }

    /// Removes the key of vault `vaultID`; false when there was none.
    @discardableResult
    static func remove(vaultID: [UInt8]) -> Bool {
        guard let kept = find(vaultID: vaultID) else { return false }
        return remove(kept)
    }

    /// Removes the key of a kept session at once (its possessors find it no more); false when it was gone.
    @discardableResult
    static func remove(_ kept: Kept) -> Bool {
        vault_keyctl_invalidate(kept.keyID) == 0
    }

    /// Gives the calling thread, and so the processes it starts from now on, a new empty session
    /// keyring of its own: they possess nothing of the login's. Where the calls are refused, so
    /// are they for those processes (a seccomp filter is inherited), and nothing needs doing.
    static func leave() throws {
        do {
            try call("join_session_keyring") { vault_keyctl_join_new_session_keyring() }
        } catch LoginKeyringProblem.blocked {
            return
        }
    }

    private static func description(_ vaultID: [UInt8]) -> String {
        "vault:session:" + hex(vaultID)
    }

    /// The id of the login's session keyring; throws when the process has none of its own: then
    /// KEY_SPEC_SESSION_KEYRING names the user's default session keyring, which every process of
    /// the user reaches (a key there would be the `vault run` child's too).
    static func loginSessionKeyring() throws -> Int32 {
        let session = try call("get_keyring_id") { vault_keyctl_get_keyring_id(KEY_SPEC_SESSION_KEYRING) }
        let userDefault = try call("get_keyring_id") { vault_keyctl_get_keyring_id(KEY_SPEC_USER_SESSION_KEYRING) }
        guard session != userDefault else { throw LoginKeyringProblem.noLoginSessionKeyring }
        return Int32(session)
    }

    @discardableResult
    static func call(_ operation: String, _ body: () -> Int) throws -> Int {
        let result = body()
        guard result < 0 else { return result }
        let error = errno
        if error == ENOSYS || error == EPERM { throw LoginKeyringProblem.blocked(errno: error) }
        throw LoginKeyringProblem.failed(operation: operation, errno: error)
    }
}
