import VaultCore
import VaultCrypto

/// What `add` and `update` print of a generated secret: the secret once with
/// `--print` (on a terminal only, as `pass generate` does), and the rule's
/// entropy in their `--json` result. Checked before the vault changes, so a
/// refused option changes nothing.
struct NewSecretOutput {
    private let invocation: Invocation
    private let rule: GeneratorRule?
    /// --print was given.
    private let prints: Bool

    /// `json` is the command's --json.
    init(_ invocation: Invocation, _ source: SecretSourceOptions, json: Bool) throws {
        self.invocation = invocation
        rule = source.generate ? try source.generator.rule() : nil
        prints = source.print
        guard prints else { return }
        if json {
            throw UsageError("--print and --json both choose what goes to stdout", hint: "give one of them")
        }
        if rule == nil {
            throw UsageError("--print goes with --generate", hint: "add --generate, or drop --print")
        }
        if !invocation.terminal.stdoutIsTTY {
            throw UsageError(
                "--print shows the secret on a terminal only, and stdout is not one",
                hint: "drop --print and read the secret with 'vault get' where it is needed")
        }
    }

    /// Shows a generated secret once with `--print`.
    func printSecret(_ secret: SecretBytes?) {
        guard prints, let secret else { return }
        secret.withUnsafeBytes { invocation.terminal.writeOut($0) }
        invocation.terminal.writeOut("\n")
    }

    /// The entropy of the generator's rule, for `--json`, when a secret was generated.
    func entropyField(_ secret: SecretBytes?) -> [(String, JSONValue)] {
        guard let rule, secret != nil else { return [] }
        return [("entropy_bits", .rendered("\((rule.entropyBits * 10).rounded() / 10)"))]
    }
}
