import VaultCore

/// `vault trust [--pin FINGERPRINT]`: the fingerprint of the vault's signing key, for readers to
/// pin, or a fingerprint given by the owner written to this machine's config.
enum TrustCommand {
    static func run(_ invocation: Invocation) throws {
        if let given = invocation.arguments.value(.pin) {
            try pin(given, invocation)
            return
        }
        let fingerprint = try VaultAccess(invocation).vault().trustFingerprint()
        if invocation.wantsJSON {
            invocation.terminal.writeOut(JSONValue.object([("trust", .string(fingerprint))]).text + "\n")
        } else {
            invocation.terminal.writeOut(fingerprint + "\n")
        }
    }

    private static func pin(_ given: String, _ invocation: Invocation) throws {
        guard let fingerprint = parsedTrustFingerprint(given) else { throw VaultError.invalidTrustFingerprint(source: "the --pin value") }
        try Config.set("trust", to: fingerprint, environment: invocation.environment)
        let path = Config.path(environment: invocation.environment)
        invocation.report("pinned the trust fingerprint \(fingerprint) in \(quoted(path)): identities read only vaults it signed",
                          json: .object([("trust", .string(fingerprint)), ("config", .string(path))]))
    }
}

/// A trust fingerprint as given: 64 hex digits, kept in lower case; nil for anything else.
func parsedTrustFingerprint(_ text: String) -> String? {
    let fingerprint = text.lowercased()
    guard fingerprint.utf8.count == 64, fingerprint.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else { return nil }
    return fingerprint
}
