import VaultCore
import VaultCrypto

/// What `add` and `update` print on stdout besides their stderr note: a
/// generated secret once with `--print` (on a terminal only, as `pass
/// generate` does), or the item's names and the generator's entropy with
/// `--json`. Checked before the vault changes, so a refused option changes nothing.
struct NewSecretOutput {
    private let invocation: Invocation
    private let rule: GeneratorRule?

    init(_ invocation: Invocation) throws {
        self.invocation = invocation
        let arguments = invocation.arguments
        rule = arguments.flag(.generate) ? try GeneratorOptions(arguments: arguments).rule() : nil
        guard arguments.flag(.print) else { return }
        if arguments.flag(.json) {
            throw UsageError("--print and --json both choose what goes to stdout", hint: "give one of them")
        }
        if rule == nil {
            throw UsageError("--print goes with --generate", hint: "add --generate, or drop --print")
        }
        if !invocation.terminal.stdoutIsTTY {
            throw UsageError("--print shows the secret on a terminal only, and stdout is not one",
                             hint: "drop --print and read the secret with 'vault get' where it is needed")
        }
    }

    /// Prints what the options ask for about the item just written.
    func report(_ secret: SecretBytes?, service: String, account: String, group: AccessGroup, accessibility: Accessibility) {
        let arguments = invocation.arguments
        if arguments.flag(.print), let secret {
            secret.withUnsafeBytes { invocation.terminal.writeOut($0) }
            invocation.terminal.writeOut("\n")
        }
        guard arguments.flag(.json) else { return }
        var fields = [("service", ItemOutput.jsonString(service)), ("account", ItemOutput.jsonString(account)),
                      ("group", ItemOutput.jsonString(group.name)), ("class", ItemOutput.jsonString(accessibility.rawValue))]
        if let rule, secret != nil {
            fields.append(("entropy_bits", "\((rule.entropyBits * 10).rounded() / 10)"))
        }
        invocation.terminal.writeOut("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}\n")
    }
}
