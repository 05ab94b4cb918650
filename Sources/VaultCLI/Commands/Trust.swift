import VaultCore

/// `vault trust`: the fingerprint of the vault's signing key, for readers to pin.
enum TrustCommand {
    static func run(_ invocation: Invocation) throws {
        let fingerprint = try VaultAccess(invocation).vault().trustFingerprint()
        if invocation.wantsJSON {
            invocation.terminal.writeOut(JSONValue.object([("trust", .string(fingerprint))]).text + "\n")
        } else {
            invocation.terminal.writeOut(fingerprint + "\n")
        }
    }
}
