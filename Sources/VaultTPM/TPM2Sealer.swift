import CTPM
import VaultCore
import VaultCrypto

#if canImport(Glibc)
import Glibc
#endif

/// Seals device keys with a TPM 2.0 through tpm2-tss's ESAPI, loaded with dlopen on first
/// use: vault has no link-time dependency on tpm2-tss, and without it says why.
public struct TPM2Sealer: DeviceKeySealer {
    /// The sonames vault loads.
    static let esysSoname = "libtss2-esys.so.0"
    static let tctiLoaderSoname = "libtss2-tctildr.so.0"

    /// The TCTI string (tpm2-tools' `TPM2TOOLS_TCTI` syntax): `device:/dev/tpmrm0`, `swtpm:host=…,port=…`.
    public let tcti: String
    /// The ESAPI library loaded: its soname, or in a debug build `VAULT_TSS2_ESYS_PATH` (tests point it at a missing file).
    let esysPath: String

    /// The TPM of `tcti`; nothing is loaded or reached until the first seal or unseal.
    public init(tcti: String, environment: [String: String]) {
        self.tcti = tcti
        #if DEBUG
        esysPath = environment["VAULT_TSS2_ESYS_PATH"].flatMap { $0.isEmpty ? nil : $0 } ?? TPM2Sealer.esysSoname
        #else
        esysPath = TPM2Sealer.esysSoname
        #endif
    }

    public func seal(_ key: SecretBytes, pcrs: [UInt8], pin: SecretBytes?) throws -> [UInt8] {
        try prepare()
        var blob = [UInt8](repeating: 0, count: Int(VAULT_TPM_BLOB_MAX))
        var blobSize = 0
        var failure = VaultTPMFailure()
        let result = key.withUnsafeBytes { keyBytes in
            TPM2Sealer.withPIN(pin) { pinBytes, pinSize in
                vault_tpm_seal(
                    tcti, pcrs, pcrs.count, pinBytes, pinSize, keyBytes.bindMemory(to: UInt8.self).baseAddress,
                    keyBytes.count, &blob, &blobSize, &failure)
            }
        }
        guard result == 0 else { throw classify(failure, pcrs: pcrs) }
        return Array(blob[..<blobSize])
    }

    public func unseal(_ blob: [UInt8], pcrs: [UInt8], pin: SecretBytes?) throws -> SecretBytes {
        try prepare()
        let secret = SecretBytes(count: Int(VAULT_TPM_SECRET_MAX))
        var secretSize = 0
        var failure = VaultTPMFailure()
        let result = secret.withUnsafeMutableBytes { secretBytes in
            TPM2Sealer.withPIN(pin) { pinBytes, pinSize in
                vault_tpm_unseal(
                    tcti, pcrs, pcrs.count, pinBytes, pinSize, blob, blob.count,
                    secretBytes.bindMemory(to: UInt8.self).baseAddress, &secretSize, &failure)
            }
        }
        guard result == 0 else { throw classify(failure, pcrs: pcrs) }
        return secret.withUnsafeBytes { SecretBytes(UnsafeRawBufferPointer(rebasing: $0[..<secretSize])) }
    }

    /// Loads tpm2-tss, and refuses a kernel device this user may not open (before tpm2-tss
    /// tries, whose error would not say why).
    private func prepare() throws {
        try TPM2Sealer.load(esys: esysPath)
        if tcti.hasPrefix("device:") {
            let path = String(tcti.dropFirst("device:".count))
            if access(path, F_OK) == 0, access(path, R_OK | W_OK) != 0 { throw TPMFailure.deviceNotOpenable(path: path) }
        }
    }

    /// Loads tpm2-tss once; throws `libraryMissing` with dlopen's words.
    static func load(esys: String) throws {
        // tpm2-tss logs its errors to stderr unless told not to; vault words them itself. TSS2_LOG set by the user wins.
        setenv("TSS2_LOG", "all+none", 0)
        var reason = [CChar](repeating: 0, count: 512)
        guard vault_tpm_load(esys, tctiLoaderSoname, &reason, reason.count) == 0 else {
            throw TPMFailure.libraryMissing(reason: String(cString: reason))
        }
    }

    private static func withPIN<R>(_ pin: SecretBytes?, _ body: (UnsafePointer<UInt8>?, Int) -> R) -> R {
        guard let pin else { return body(nil, 0) }
        return pin.withUnsafeBytes { body($0.bindMemory(to: UInt8.self).baseAddress, $0.count) }
    }

    /// What a failed step's TSS2 return code means for the user.
    private func classify(_ failure: VaultTPMFailure, pcrs: [UInt8]) -> TPMFailure {
        let code = TPMReturnCode(failure.code)
        switch (Int(failure.step), code.base) {
        case (Int(VAULT_TPM_STEP_CONNECT), _): return .unreachable(tcti: tcti, code: failure.code)
        case (_, .lockout): return .lockout
        case (Int(VAULT_TPM_STEP_LOAD), _) where code.isFromTPM: return .anotherTPM
        case (Int(VAULT_TPM_STEP_UNSEAL), .policyFail), (Int(VAULT_TPM_STEP_UNSEAL), .pcrChanged): return .stateChanged(pcrs: pcrs)
        case (Int(VAULT_TPM_STEP_UNSEAL), .authFail), (Int(VAULT_TPM_STEP_UNSEAL), .badAuth): return .wrongPIN
        default: return .failed(step: TPM2Sealer.steps[Int(failure.step)] ?? .unknown, code: failure.code)
        }
    }

    private static let steps: [Int: TPMStep] = [
        Int(VAULT_TPM_STEP_NONE): .checkingInput, Int(VAULT_TPM_STEP_PRIMARY): .creatingPrimaryKey,
        Int(VAULT_TPM_STEP_SESSION): .policySession, Int(VAULT_TPM_STEP_CREATE): .creatingSealedObject,
        Int(VAULT_TPM_STEP_LOAD): .loadingSealedObject, Int(VAULT_TPM_STEP_UNSEAL): .unsealing,
        Int(VAULT_TPM_STEP_BLOB): .readingSealedBlob
    ]
}

/// A TSS2 return code, read as the TPM 2.0 spec (part 2, TPM_RC) lays it out.
struct TPMReturnCode {
    enum Base {
        case policyFail, pcrChanged, authFail, badAuth, lockout, other
    }

    let value: UInt32

    init(_ value: UInt32) {
        self.value = value
    }

    /// From the TPM itself, not from a TSS layer (the layer is in bits 16–23).
    var isFromTPM: Bool { value != 0 && value >> 16 == 0 }

    /// The error without its handle, session or parameter number.
    var base: Base {
        guard isFromTPM else { return .other }
        // Format one (bit 7) carries the number of the handle, session or parameter in bits 8–11 and bit 6.
        let code = value & 0x80 != 0 ? value & 0xBF : value
        switch code {
        case 0x09D: return .policyFail  // TPM_RC_POLICY_FAIL
        case 0x128: return .pcrChanged  // TPM_RC_PCR_CHANGED
        case 0x08E: return .authFail  // TPM_RC_AUTH_FAIL
        case 0x0A2: return .badAuth  // TPM_RC_BAD_AUTH
        case 0x921: return .lockout  // TPM_RC_LOCKOUT
        default: return .other
        }
    }
}
