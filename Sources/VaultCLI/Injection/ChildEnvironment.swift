import VaultCore
import VaultCrypto

/// The environment `vault run` gives its child before references are
/// resolved: vault's own less the variables that unlock vault (unless
/// `--keep-vault-env`), then the items of each `--env-group`, then each
/// `--env-file` in order, then each `--env`; a later assignment of a name wins.
struct ChildEnvironment {
    private var values: [String: String] = [:]
    /// Where each name was last assigned, for messages.
    private var origins: [String: String] = [:]
    /// The variables of `--env-group` items that no later assignment replaced.
    private var groupValues: [String: SecretBytes] = [:]

    init(_ invocation: Invocation, _ arguments: RunArguments, groupVariables: GroupVariables?) throws {
        let withheld = arguments.keepVaultEnv ? [] : Set(CommandTable.unlockingVariables)
        for (name, value) in invocation.environment where !withheld.contains(name) { assign(name, value, origin: name) }
        for (name, secret) in groupVariables?.variables ?? [] {
            values[name] = nil
            groupValues[name] = secret
        }
        for path in arguments.envFiles {
            let bytes = try PlainFile.read(path)
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw CommandFailure(
                    .usage, "the env file \(quoted(path)) is not UTF-8 text",
                    hint: "an env file holds NAME=VALUE lines; put binary secrets in the vault")
            }
            do {
                for entry in try Dotenv.parse(text) {
                    assign(entry.name, entry.value, origin: "\(path):\(entry.line) (\(entry.name))")
                }
            } catch {
                throw CommandFailure(
                    .usage, "\(path):\(error.line): \(error.problem)",
                    hint: "write NAME=VALUE lines; quote values with spaces or #; see 'vault help run'")
            }
        }
        for assignment in arguments.assignments {
            guard let equals = assignment.firstIndex(of: "="), Dotenv.isValidName(String(assignment[..<equals])) else {
                // The value may be a secret typed in the wrong place: name only what stands before the "=".
                let shown =
                    assignment.firstIndex(of: "=").map { "\(quoted(String(assignment[..<$0])))=…" }
                    ?? "(\(assignment.count) characters, not shown)"
                throw UsageError(
                    "--env \(shown) is not NAME=VALUE",
                    hint: "write --env NAME=vault://SERVICE/ACCOUNT, with a name of letters, digits and _")
            }
            let name = String(assignment[..<equals])
            assign(name, String(assignment[assignment.index(after: equals)...]), origin: "--env \(name)")
        }
    }

    private mutating func assign(_ name: String, _ value: String, origin: String) {
        groupValues[name] = nil
        values[name] = value
        origins[name] = origin
    }

    /// The secrets of the `--env-group` items set, to be masked as references are.
    var groupSecrets: [SecretBytes] { Array(groupValues.values) }

    /// Every value that is a secret reference, with where it came from.
    var referenceUses: [ReferenceUse] {
        values.keys.sorted().compactMap { name in
            let value = values[name]!
            return SourceReference.isReference(value) ? ReferenceUse(origin: origins[name]!, text: value) : nil
        }
    }

    /// The final variables, references replaced by their secrets. A secret
    /// with a NUL byte cannot be an environment variable and is refused.
    func resolved(with secrets: [SourceReference: SecretBytes]) throws -> [(name: String, value: [UInt8])] {
        try groupValues.keys.sorted().map { ($0, groupValues[$0]!.copyBytes()) }
            + values.keys.sorted().map { name in
                let value = values[name]!
                guard SourceReference.isReference(value), let reference = try? SourceReference(parsing: value),
                    let secret = secrets[reference]
                else {
                    return (name, Array(value.utf8))
                }
                let bytes = secret.copyBytes()
                if bytes.contains(0) {
                    throw CommandFailure(
                        .usage, "the secret of \(reference) (for \(origins[name]!)) holds a NUL byte, which an environment variable cannot",
                        hint: "write it to a file with 'vault inject' or 'vault get' instead")
                }
                return (name, bytes)
            }
    }
}
