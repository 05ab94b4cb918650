import FoundationEssentials
import VaultCore

/// `vault status`: locked or unlocked, the after-first-unlock state, the
/// scoped credential in use, and item counts by group and class — without an unlock.
enum StatusCommand {
    static func run(_ arguments: JSONArguments, _ invocation: Invocation) throws {
        let access = VaultAccess(invocation)
        let vault = try access.vault()
        let report = try vault.status(sessionToken: access.sessionToken, loginKeyring: access.usesLoginKeyring)
        let total = report.counts.reduce(0) { $0 + $1.count }
        let sessionEnded = access.sessionToken != nil && report.sessionExpiry == nil
        let state =
            report.sessionExpiry.map { "unlocked (session ends at \(DateText.iso($0)) if idle)" }
            ?? (sessionEnded ? "locked (the session in VAULT_SESSION has ended; start one with 'vault unlock')" : "locked")
        let credential = vault.scopedCredential
        let terminal = invocation.terminal
        // Who reads here: a member's identity or a scoped credential opens at once, without a session.
        let role: Role = vault.memberName != nil ? .member : credential != nil ? .credential : .owner
        let openState =
            switch role {
            case .owner: state
            case .member: "open with the member's identity (no session needed)"
            case .credential: "open with the scoped credential (no session needed)"
            }
        if arguments.json {
            var fields: [(String, JSONValue)] = [
                ("path", .string(vault.location.path)),
                ("backend", .string("file")),
                ("locked", .bool(report.sessionExpiry == nil))
            ]
            if let expiry = report.sessionExpiry { fields.append(("session_expires", .string(DateText.iso(expiry)))) }
            if sessionEnded { fields.append(("session_ended", .bool(true))) }
            fields.append(("session", .optional(report.sessionPlace?.rawValue)))
            fields.append(("as", .string(role.rawValue)))
            if let member = vault.memberName { fields.append(("member", .string(member))) }
            if let credential { fields.append(("credential", json(credential))) }
            fields += [
                ("after_first_unlock", .bool(report.afterFirstUnlock)),
                ("on_its_device", .bool(report.onItsDevice)),
                ("device_key", .string(deviceKeyKind(report.deviceKey))),
                ("keyslots", .array(report.keyslots.map { .string($0.name) })),
                ("items", .number(total)),
                (
                    "counts",
                    .array(
                        report.counts.map {
                            .object([
                                ("group", .string($0.group)), ("class", .string($0.accessibility.rawValue)), ("count", .number($0.count))
                            ])
                        })
                )
            ]
            terminal.writeOut(JSONValue.object(fields).text + "\n")
            return
        }
        var lines = [
            "vault:              \(vault.location.path)",
            "backend:            file",
            "state:              \(openState)",
            "you:                \(StatusCommand.you(role: role, member: vault.memberName))",
            "session:            \(describe(report.sessionPlace))"
        ]
        if let member = vault.memberName {
            lines.append(
                "member:             \(quoted(member)), by its identity; \(credential.map(describe) ?? "full (every key but the owner's trust key)")"
            )
        } else if let credential {
            lines.append("credential:         \(describe(credential))")
        }
        lines += [
            "after first unlock: \(report.afterFirstUnlock ? "yes (after-first-unlock items open without a session)" : "no")",
            "device:             \(report.onItsDevice ? "this machine (device-bound items open here)" : report.deviceKeyRefusal != nil ? "this machine, but the TPM refuses its device key (device-bound items do not open)" : "another machine (device-bound items do not open here)")",
            "device key:         \(deviceKeyWords(report.deviceKey))",
            "keyslots:           \(report.keyslots.map(\.name).joined(separator: ", "))",
            "items:              \(total)"
        ]
        for count in report.counts {
            lines.append("  \(count.group) / \(count.accessibility.rawValue): \(count.count)")
        }
        terminal.writeOut(lines.joined(separator: "\n") + "\n")
    }

    /// Who the keys at hand make you (`status`'s `you:`, `"as"` in JSON).
    private enum Role: String {
        case owner, member, credential
    }

    /// Who the keys at hand make you: the owner, a member by name, or the holder of a scoped credential.
    private static func you(role: Role, member: String?) -> String {
        switch role {
        case .member: return "member \(quoted(member ?? "")) (by its identity)"
        case .credential: return "the holder of a scoped credential (see credential: below)"
        case .owner:
            return "the owner (passphrase, key file or session); a member names its identity with --identity FILE or VAULT_IDENTITY"
        }
    }

    /// How the device key is kept, in the words of `status` and `device-key`.
    static func deviceKeyWords(_ protection: DeviceKeyProtection) -> String {
        switch protection {
        case .none: return "none on this machine"
        case .file: return "a file (not sealed by a TPM; 'vault device-key --tpm' seals it)"
        case .tpm: return "sealed by the TPM (\(DeviceKeyCommand.describe(protection)))"
        }
    }

    private static func deviceKeyKind(_ protection: DeviceKeyProtection) -> String {
        switch protection {
        case .none: return "none"
        case .file: return "file"
        case .tpm: return "tpm"
        }
    }

    private static func describe(_ place: Vault.SessionPlace?) -> String {
        switch place {
        case .environment?: return "VAULT_SESSION"
        case .loginKeyring?: return "this login's kernel keyring"
        case nil: return "none"
        }
    }

    /// `scoped to group "ci"; read-only; expires 2027-01-31T00:00:00Z`, as `gh auth status` shows a token's scopes.
    private static func describe(_ credential: ScopedCredential) -> String {
        let groups = credential.groups.map { quoted($0.name) }.joined(separator: ", ")
        let expiry =
            credential.expires.map { (credential.hasExpired(at: Date()) ? "expired " : "expires ") + DateText.iso($0) } ?? "no expiry"
        return
            "scoped to group\(credential.groups.count == 1 ? "" : "s") \(groups); \(credential.canWrite ? "read-write" : "read-only"); \(expiry)"
    }

    private static func json(_ credential: ScopedCredential) -> JSONValue {
        .object([
            ("groups", .array(credential.groups.map { .string($0.name) })), ("read_only", .bool(!credential.canWrite)),
            ("expires", .optional(credential.expires.map(DateText.iso))),
            ("expired", .bool(credential.hasExpired(at: Date())))
        ])
    }
}
