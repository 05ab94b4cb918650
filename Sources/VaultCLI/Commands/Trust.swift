import VaultCore

/// `vault trust`'s options.
struct TrustArguments: CommandArguments {
    static let pin = OptionSpec(
        "pin", value: "FINGERPRINT", help: "write FINGERPRINT to the config file as the trust to pin, instead of printing the vault's")

    static let options: [OptionSpec] = [
        pin,
        JSONArguments.json
    ]

    /// --pin: the fingerprint to write to the config file.
    var pin: String?
    var json: Bool

    init(_ options: OptionReader) {
        pin = options.value(TrustArguments.pin)
        json = options.flag(JSONArguments.json)
    }
}

/// `vault trust [--pin FINGERPRINT]`: the fingerprint of the vault's signing key, for readers to
/// pin, or a fingerprint given by the owner written to this machine's config.
enum TrustCommand {
    static func run(_ arguments: TrustArguments, _ invocation: Invocation) throws {
        if let given = arguments.pin {
            try pin(given, json: arguments.json, invocation)
            return
        }
        let fingerprint = try VaultAccess(invocation).vault().trustFingerprint()
        if arguments.json {
            invocation.terminal.writeOut(JSONValue.object([("trust", .string(fingerprint))]).text + "\n")
        } else {
            invocation.terminal.writeOut(fingerprint + "\n")
        }
    }

    private static func pin(_ given: String, json: Bool, _ invocation: Invocation) throws {
        guard let fingerprint = parsedTrustFingerprint(given) else { throw VaultError.invalidTrustFingerprint(source: "the --pin value") }
        try Config.set(.trust, to: fingerprint, environment: invocation.environment)
        let path = Config.path(environment: invocation.environment)
        invocation.report(
            "pinned the trust fingerprint \(fingerprint) in \(quoted(path)): identities read only vaults it signed",
            json: .object([("trust", .string(fingerprint)), ("config", .string(path))]), asJSON: json)
    }
}

/// A trust fingerprint as given: 64 hex digits, kept in lower case; nil for anything else.
func parsedTrustFingerprint(_ text: String) -> String? {
    let fingerprint = text.lowercased()
    guard fingerprint.utf8.count == 64, fingerprint.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
        return nil
    }
    return fingerprint
}
