import VaultCore

/// The words for a TPM that did not seal or unseal the device key: each says which it is
/// (never a damaged vault) and what to do; docs/SECURITY.md ("The TPM") explains them.
enum TPMFailureWords {
    static func report(_ failure: TPMFailure) -> ErrorReport {
        let status = failure.status
        switch failure {
        case .libraryMissing(let reason):
            return ErrorReport(
                status: status, message: "the TPM is not available: tpm2-tss could not be loaded (\(reason))",
                hint: "install it: apt-get install libtss2-esys-3.0.2-0 libtss2-tctildr0")
        case .deviceNotOpenable(let path):
            return ErrorReport(
                status: status, message: "the TPM is not available: \(quoted(path)) exists, but this user may not open it",
                hint: "join the tss group (sudo usermod -aG tss \"$USER\", then log in again)")
        case .unreachable(let tcti, let code):
            return ErrorReport(
                status: status, message: "the TPM is not available: \(quoted(tcti)) does not answer (TSS2 code \(hex(code)))",
                hint: "check VAULT_TPM or the config key tpm (a TCTI string such as device:/dev/tpmrm0)")
        case .noTPM:
            return ErrorReport(
                status: status,
                message: "no TPM: VAULT_TPM and the config key tpm are unset or off, and \(TPMSettings.kernelDevice) does not exist",
                hint: "set VAULT_TPM or the config key tpm to the TPM, e.g. device:/dev/tpmrm0")
        case .stateChanged(let pcrs):
            return ErrorReport(
                status: status,
                message:
                    "the TPM refuses this machine's device key: this machine's state changed (PCR \(pcrs.map(String.init).joined(separator: ", ")))",
                hint:
                    "items of the other classes still open; after an intended change (a firmware or Secure Boot update), re-seal with 'vault device-key --tpm --reseal', which needs an unlock (passphrase or key file); otherwise boot the state it was sealed in"
            )
        case .anotherTPM:
            return ErrorReport(
                status: status,
                message:
                    "the TPM refuses this machine's device key: it was sealed by another TPM (a copied home directory or backup), or this TPM was cleared",
                hint: "items of the other classes still open; this-device-only items open only on the machine they were added on")
        case .notThisVaultsSeal:
            return ErrorReport(
                status: status,
                message:
                    "the TPM opens the sealed device key, but it is not this vault's seal: it holds another vault's device key, or this vault's from before a re-key (a restored backup)",
                hint:
                    "items of the other classes still open; take the device key from this vault's recovery seal with 'vault device-key --tpm --reseal', which needs an unlock (passphrase or key file)"
            )
        case .wrongPIN:
            return ErrorReport(
                status: status, message: "wrong TPM PIN for the device key",
                hint: "each wrong PIN counts toward the TPM's lockout, which locks every user of this TPM out for a while")
        case .lockout:
            return ErrorReport(
                status: status, message: "the TPM is in dictionary-attack lockout: it refuses every PIN for now",
                hint:
                    "wait for the TPM to recover (its lockout interval), or have its owner clear it (tpm2_dictionarylockout --clear-lockout)"
            )
        case .pinNeeded:
            return ErrorReport(
                status: status, message: "the device key is sealed with a TPM PIN, and vault may not ask for it here",
                hint: "set VAULT_TPM_PIN_FILE to a file holding the PIN, or run on a terminal")
        case .failed(let step, let code):
            return ErrorReport(
                status: status, message: "the TPM failed while \(words(step)) (TSS2 code \(hex(code)))",
                hint: "tpm2_rc_decode \(hex(code)) explains the code")
        }
    }

    private static func words(_ step: TPMStep) -> String {
        switch step {
        case .checkingInput: return "checking the input"
        case .creatingPrimaryKey: return "creating the storage primary key"
        case .policySession: return "the policy session"
        case .creatingSealedObject: return "creating the sealed object"
        case .loadingSealedObject: return "loading the sealed object"
        case .unsealing: return "unsealing"
        case .readingSealedBlob: return "reading the sealed blob"
        case .unknown: return "a step"
        }
    }

    private static func hex(_ code: UInt32) -> String {
        "0x" + String(code, radix: 16)
    }
}
