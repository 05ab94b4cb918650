internal import CKernelKeyring

#if canImport(Glibc)
import Glibc
#endif

/// A named record of bytes in the login's kernel session keyring (a `user` key, possessor-only, no
/// timeout): kept while the login lasts, across the exits of the process that wrote it, never in a
/// file. The Secret Service provider keeps its `session` collection in one.
package enum LoginKeyringRecord {
    /// The most a `user` key holds.
    package static let capacity = 32767

    /// The bytes of record `name`, nil when there is none; throws `LoginKeyringProblem` when the
    /// login has no keyring to look in.
    package static func read(_ name: String) throws -> [UInt8]? {
        let keyring = try LoginKeyring.loginSessionKeyring()
        let keyID = vault_keyctl_search(keyring, "user", name)
        guard keyID > 0 else { return nil }
        let size = vault_keyctl_read(Int32(keyID), nil, 0)
        guard size >= 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: size)
        let length = buffer.withUnsafeMutableBytes { vault_keyctl_read(Int32(keyID), $0.baseAddress, $0.count) }
        guard length >= 0, length <= buffer.count else { return nil }
        return Array(buffer[0..<length])
    }

    /// Writes record `name`, replacing what it held; throws `LoginKeyringProblem`.
    package static func write(_ name: String, _ bytes: [UInt8]) throws {
        let keyring = try LoginKeyring.loginSessionKeyring()
        let keyID = try LoginKeyring.call("add_key") {
            bytes.withUnsafeBytes { vault_add_key("user", name, $0.baseAddress, $0.count, keyring) }
        }
        try LoginKeyring.call("setperm") { vault_keyctl_setperm(Int32(keyID), LoginKeyring.possessorOnly) }
    }
}
