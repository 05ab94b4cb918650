import FoundationEssentials
import VaultCrypto

/// The owner's signed acceptances of live exposed values (`vault exposure accept`), kept beside the
/// vault file in `<vault>.accepted` (committed with it) and checked under the trust key the vault's
/// header names: a line no trust key of this vault signed accepts nothing, and is counted.
struct ExposureAcceptances {
    /// Where the acceptances are kept: beside the vault file (`<vault>.accepted`), to commit with it.
    let path: String
    /// The vault file's directory.
    let directory: String

    init(of location: VaultLocation) {
        path = location.path + ".accepted"
        directory = location.directory
    }

    /// Refuses a reason over 1 000 bytes (`invalidValue`).
    static func checkReason(_ reason: String) throws {
        guard reason.utf8.count <= ExposureAcceptance.maxReasonBytes else {
            throw VaultError.invalidValue(
                .attributeTooLarge(name: "reason", size: reason.utf8.count, limit: ExposureAcceptance.maxReasonBytes))
        }
    }

    /// Signs the acceptance of item `itemID`'s live exposed values (those it took before `now`) with
    /// `vault`'s trust key (`trustKeyNeeded` without it), and appends it to the acceptances.
    func accept(itemID: String, reason: String, in vault: Snapshot, now: Date) throws -> ExposureAcceptance {
        guard let trustKey = vault.trustKey else { throw VaultError.trustKeyNeeded(.acceptExposure) }
        let acceptance = ExposureAcceptance(
            itemID: itemID, acceptedAt: Date(timeIntervalSince1970: (now.timeIntervalSince1970 * 1000).rounded(.down) / 1000),
            reason: reason)
        let signature = try trustKey.sign(acceptance.signedMessage(vaultID: vault.file.vaultID))
        var text = FileSystem.exists(path) ? try FileSystem.read(path, requirePrivate: false, missing: .noSuchVault(path: path)) : []
        text += Array(acceptance.line(signature: signature).utf8)
        try FileSystem.replaceAtomically(text, at: path, directory: directory)
        return acceptance
    }

    /// The acceptances' text, nil when there are none yet.
    func text() throws -> [UInt8]? {
        guard FileSystem.exists(path) else { return nil }
        return try FileSystem.read(path, requirePrivate: false, missing: .noSuchVault(path: path))
    }

    /// The acceptances of `text` a trust key of `vault` signed, and how many lines none did (never silent).
    static func verified(_ text: [UInt8], in vault: Snapshot) -> (accepted: [ExposureAcceptance], unverified: Int) {
        var accepted: [ExposureAcceptance] = [], unverified = 0
        for line in String(decoding: text, as: UTF8.self).split(separator: "\n") where !line.isEmpty {
            guard let (acceptance, signature) = ExposureAcceptance.parse(line),
                vault.file.trustPublicKey.isValid(signature: signature, of: acceptance.signedMessage(vaultID: vault.file.vaultID))
            else {
                unverified += 1
                continue
            }
            accepted.append(acceptance)
        }
        return (accepted, unverified)
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
            let signature = Base64.decode(String(fields[4]))
        else { return nil }
        let acceptance = ExposureAcceptance(
            itemID: String(fields[1]), acceptedAt: Date(timeIntervalSince1970: Double(milliseconds) / 1000),
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
