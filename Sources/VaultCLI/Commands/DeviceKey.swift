import VaultCore
import VaultCrypto

/// `vault device-key`'s options.
struct DeviceKeyArguments: CommandArguments {
    static let tpm = OptionSpec("tpm", help: "seal the device key by the TPM, and wipe its file (needs an unlock)")
    static let reseal = OptionSpec(
        "reseal", help: "with --tpm, seal a sealed key again, under the PCRs' values now (needs an unlock; recovers from a PCR change)")
    static let noTPM = OptionSpec("no-tpm", help: "keep the device key in a 0600 file again, not sealed (needs an unlock)")

    static let options: [OptionSpec] = [
        tpm,
        reseal,
        OptionSpec(TrustArguments.pin.name, help: "with --tpm, also guard the seal with a PIN: from VAULT_TPM_PIN_FILE, or asked twice"),
        noTPM
    ]

    /// --tpm: seal the device key by the TPM.
    var seal: Bool
    /// --reseal: seal it again.
    var reseal: Bool
    /// --pin: with a PIN.
    var pin: Bool
    /// --no-tpm: move it back into a file.
    var unseal: Bool

    init(_ options: OptionReader) {
        seal = options.flag(DeviceKeyArguments.tpm)
        reseal = options.flag(DeviceKeyArguments.reseal)
        pin = options.flag(TrustArguments.pin)
        unseal = options.flag(DeviceKeyArguments.noTPM)
    }

    func validate() throws {
        if seal && unseal { throw UsageError("--tpm and --no-tpm contradict each other", hint: "give one of them") }
        if (reseal || pin) && !seal {
            throw UsageError(
                "--\(reseal ? "reseal" : "pin") goes with --tpm", hint: "vault device-key --tpm \(reseal ? "--reseal" : "--pin")")
        }
    }
}

/// `vault device-key`: shows how this machine keeps the vault's device key; `--tpm` seals it by
/// the TPM (`--reseal` again, `--pin` with a PIN), `--no-tpm` moves it back into a file.
enum DeviceKeyCommand {
    static func run(_ arguments: DeviceKeyArguments, _ invocation: Invocation) throws {
        let (seal, unseal, reseal, pin) = (arguments.seal, arguments.unseal, arguments.reseal, arguments.pin)
        let access = VaultAccess(invocation)
        let vault = try access.vault()
        let terminal = invocation.terminal
        if seal {
            let outcome = try vault.sealDeviceKey(reseal: reseal, pin: pin ? try newPIN(access) : nil)
            let how = describe(try vault.deviceKeyProtection())
            switch outcome {
            case .sealed: terminal.say("sealed the device key by the TPM (\(how)); its file is wiped")
            case .resealed: terminal.say("sealed the device key again by the TPM (\(how))")
            case .alreadySealed:
                terminal.say("the device key is already sealed by the TPM (\(how)); nothing changed ('--reseal' seals it again)")
            }
        } else if unseal {
            if try vault.unsealDeviceKeyToFile() {
                terminal.say("the device key is a 0600 file again, no longer sealed by the TPM")
            } else {
                terminal.say("the device key is not sealed by a TPM; nothing changed")
            }
        } else {
            terminal.writeOut(StatusCommand.deviceKeyWords(try vault.deviceKeyProtection()) + "\n")
        }
    }

    /// `PCR 7, 23 and a PIN`.
    static func describe(_ protection: DeviceKeyProtection) -> String {
        guard case .tpm(let pcrs, let hasPIN) = protection else { return "not sealed" }
        return "PCR " + pcrs.map(String.init).joined(separator: ", ") + (hasPIN ? " and a PIN" : "")
    }

    /// A new PIN: from VAULT_TPM_PIN_FILE, or typed twice on the terminal.
    private static func newPIN(_ access: VaultAccess) throws -> SecretBytes {
        if let path = Settings(access.invocation).value(variable: .vaultTPMPINFile) { return try TPMSettings.pin(fromFile: path) }
        if let reason = access.reasonPromptsAreOff {
            throw CommandFailure(
                .interactionNotAllowed, "no TPM PIN given, and vault may not prompt here (\(reason))",
                hint: "set VAULT_TPM_PIN_FILE to a file holding the PIN")
        }
        let terminal = access.invocation.terminal
        guard let first = try terminal.readHidden(prompt: "New TPM PIN: "),
            let second = try terminal.readHidden(prompt: "New TPM PIN (again): ")
        else {
            throw CommandFailure.interactionNotAllowed(reason: "no terminal")
        }
        guard first == second else { throw UsageError("the two PINs differ; nothing changed", hint: "run the command again") }
        return try TPMSettings.checked(SecretBytes(first))
    }
}
