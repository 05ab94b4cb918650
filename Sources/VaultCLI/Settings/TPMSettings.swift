import VaultCore
import VaultCrypto
import VaultTPM

#if canImport(Glibc)
import Glibc
#endif

/// Which TPM seals this machine's device keys: VAULT_TPM, else the config key `tpm` — a TCTI
/// string in tpm2-tools' TPM2TOOLS_TCTI syntax (`swtpm:host=127.0.0.1,port=2321`), a device
/// path, or `off` — else the kernel's resource manager, /dev/tpmrm0, when it exists. New seals
/// bind to the PCRs of the config key `tpm-pcrs` (default 7). docs/SECURITY.md, "The TPM".
struct TPMSettings {
    static let kernelDevice = "/dev/tpmrm0"
    static let defaultPCRs: [UInt8] = [7]

    /// The TCTI string, or nil when no TPM is used.
    let tcti: String?
    /// Named by VAULT_TPM or the config, rather than found.
    let isExplicit: Bool
    let pcrs: [UInt8]

    init(_ invocation: Invocation) throws {
        let named = try nonEmpty(invocation.environment[.vaultTPM]) ?? nonEmpty(invocation.config().value(.tpm))
        isExplicit = named != nil
        switch named {
        case "off"?: tcti = nil
        case let value? where value.hasPrefix("/"): tcti = "device:" + value
        case "device"?: tcti = "device:" + TPMSettings.kernelDevice
        case let value?: tcti = value
        case nil: tcti = Glibc.access(TPMSettings.kernelDevice, F_OK) == 0 ? "device:" + TPMSettings.kernelDevice : nil
        }
        pcrs = try TPMSettings.parsePCRs(try invocation.config().value(.tpmPCRs))
    }

    /// Whether a TPM found (not named) is one this user may not open: `init` then keeps a clear
    /// device key and says why, rather than failing.
    var foundButNotOpenable: Bool {
        !isExplicit && tcti != nil && Glibc.access(TPMSettings.kernelDevice, R_OK | W_OK) != 0
    }

    /// The TPM as VaultCore uses it; the PIN of a sealed key comes from VAULT_TPM_PIN_FILE, or is
    /// asked on the terminal when `mayPrompt`.
    func tpmAccess(_ invocation: Invocation, mayPrompt: Bool) -> TPMAccess? {
        guard let tcti else { return nil }
        let pinFile = nonEmpty(invocation.environment[.vaultTPMPINFile])
        let terminal = invocation.terminal
        return TPMAccess(
            sealer: TPM2Sealer(tcti: tcti, environment: invocation.environment), pcrs: pcrs,
            askPIN: {
                if let pinFile { return try TPMSettings.pin(fromFile: pinFile) }
                guard mayPrompt, let typed = try terminal.readHidden(prompt: "TPM PIN of the device key: ") else {
                    throw TPMFailure.pinNeeded
                }
                return SecretBytes(typed)
            })
    }

    /// A PIN from a file (less one trailing newline): 1 to 32 bytes, what a sha256 TPM auth value holds.
    static func pin(fromFile path: String) throws -> SecretBytes {
        try checked(try PassphraseFile.read(path: path))
    }

    static func checked(_ pin: SecretBytes) throws -> SecretBytes {
        guard (1...32).contains(pin.count) else {
            throw UsageError("a TPM PIN of \(pin.count) bytes; it must be 1 to 32", hint: "choose a shorter PIN")
        }
        return pin
    }

    /// `7,23`: PCR numbers 0 to 23 of the sha256 bank, each once.
    static func parsePCRs(_ text: String?) throws -> [UInt8] {
        guard let text else { return defaultPCRs }
        let numbers = text.split(separator: ",").map { UInt8($0.trimmed()) }
        guard !numbers.isEmpty, numbers.allSatisfy({ $0.map { $0 < 24 } ?? false }), Set(numbers).count == numbers.count else {
            throw UsageError(
                "the config key tpm-pcrs is \(quoted(text)), not a list of PCR numbers 0 to 23",
                hint: "write it as tpm-pcrs = 7 or tpm-pcrs = 7,23")
        }
        return numbers.compactMap { $0 }
    }
}
