import FoundationEssentials
import VaultCrypto

/// The owner's signed acceptances of live exposed values (`vault exposure accept`), kept beside the
/// vault file in `<vault>.accepted` (committed with it) and checked under the trust key the vault's
/// header names: a line no trust key of this vault signed accepts nothing, and is counted.
extension Vault {
    /// Where the acceptances are kept: beside the vault file, to commit with it.
    package var exposureAcceptancesPath: String { location.path + ".accepted" }

    /// Signs the acceptance of item `itemID`'s live exposed values (those it took before now) with the
    /// trust key, and appends it to the acceptances. The owner's only (`trustKeyNeeded` otherwise).
    /// Throws `invalidValue` for a reason over 1 000 bytes.
    package func acceptExposure(itemID: String, reason: String) throws -> ExposureAcceptance {
        guard reason.utf8.count <= ExposureAcceptance.maxReasonBytes else {
            throw VaultError.invalidValue(.attributeTooLarge(name: "reason", size: reason.utf8.count, limit: ExposureAcceptance.maxReasonBytes))
        }
        try requireTrustKey(.acceptExposure)
        return try withKeys {
            let vault = try readSnapshot()
            guard let trustKey = vault.trustKey else { throw VaultError.trustKeyNeeded(.acceptExposure) }
            let now = host.now()
            let acceptance = ExposureAcceptance(itemID: itemID, acceptedAt: Date(timeIntervalSince1970: (now.timeIntervalSince1970 * 1000).rounded(.down) / 1000),
                                                reason: reason)
            let signature = try Ed25519.sign(acceptance.signedMessage(vaultID: vault.file.vaultID), privateKey: trustKey)
            var text = FileSystem.exists(exposureAcceptancesPath)
                ? try FileSystem.read(exposureAcceptancesPath, requirePrivate: false, missing: .noSuchVault(path: exposureAcceptancesPath)) : []
            text += Array(acceptance.line(signature: signature).utf8)
            try FileSystem.replaceAtomically(text, at: exposureAcceptancesPath, directory: location.directory)
            return acceptance
        }
    }

    /// The acceptances a trust key of this vault signed, and how many lines none did (never silent).
    package func exposureAcceptances() throws -> (accepted: [ExposureAcceptance], unverified: Int) {
        guard FileSystem.exists(exposureAcceptancesPath) else { return ([], 0) }
        let text = try FileSystem.read(exposureAcceptancesPath, requirePrivate: false, missing: .noSuchVault(path: exposureAcceptancesPath))
        return try withKeys {
            let vault = try readSnapshot()
            var accepted: [ExposureAcceptance] = [], unverified = 0
            for line in String(decoding: text, as: UTF8.self).split(separator: "\n") where !line.isEmpty {
                guard let (acceptance, signature) = ExposureAcceptance.parse(line),
                      Ed25519.isValid(signature: signature, of: acceptance.signedMessage(vaultID: vault.file.vaultID),
                                      publicKey: vault.file.trustPublicKey) else {
                    unverified += 1
                    continue
                }
                accepted.append(acceptance)
            }
            return (accepted, unverified)
        }
    }
}

extension ExposureAcceptance {
    /// The longest reason kept.
    static let maxReasonBytes = 1000
    static let linePrefix = "vault-exposure-accept-v1"

    var milliseconds: UInt64 { UInt64(max(0, (acceptedAt.timeIntervalSince1970 * 1000).rounded())) }

    /// What the trust key signs: label ‖ vault id ‖ item id (16) ‖ u64 accepted at (ms) ‖ the reason (UTF-8).
    func signedMessage(vaultID: [UInt8]) -> [UInt8] {
        var w = ByteWriter(capacity: 64 + reason.utf8.count)
        w.raw(KeyLabel.exposureAcceptance.bytes)
        w.raw(vaultID)
        w.raw(ExposureAcceptance.bytes(hex: itemID) ?? [])
        w.u64(milliseconds)
        w.raw(Array(reason.utf8))
        return w.bytes
    }

    /// One line of the file: prefix, item id (hex), accepted at (ms), reason and signature (base64).
    func line(signature: [UInt8]) -> String {
        [ExposureAcceptance.linePrefix, itemID, String(milliseconds), Base64.encode(Array(reason.utf8)), Base64.encode(signature)]
            .joined(separator: " ") + "\n"
    }

    static func parse(_ line: Substring) -> (ExposureAcceptance, [UInt8])? {
        let fields = line.split(separator: " ")
        guard fields.count == 5, fields[0] == linePrefix, bytes(hex: String(fields[1]))?.count == 16,
              let milliseconds = UInt64(fields[2]), let reason = Base64.decode(String(fields[3])),
              let signature = Base64.decode(String(fields[4])) else { return nil }
        let acceptance = ExposureAcceptance(itemID: String(fields[1]), acceptedAt: Date(timeIntervalSince1970: Double(milliseconds) / 1000),
                                            reason: String(decoding: reason, as: UTF8.self))
        return (acceptance, signature)
    }

    static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
            out.append(byte)
        }
        return out
    }
}
