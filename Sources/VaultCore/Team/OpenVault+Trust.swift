import VaultCrypto

// Whether a header is signed under the trust fingerprint readers pin (docs/TEAMS.md, "Trust").
extension OpenVault {
    /// Whether the header as read is signed under the trust key whose fingerprint is `fingerprint`.
    func headerIsSigned(byFingerprint fingerprint: String) -> Bool {
        Self.isSigned(file, header: header, byFingerprint: fingerprint)
    }

    /// Whether `header` (the header parameters and checksum of `file`, as read) is signed under the
    /// trust key whose fingerprint is `fingerprint`: the file's trust public key has that fingerprint,
    /// its trust statement (vault id, key epoch, signing public key) checks under that key, and the
    /// header signature checks under the signing key the statement names.
    static func isSigned(_ file: VaultFile, header: [UInt8], byFingerprint fingerprint: String) -> Bool {
        file.version >= 2 && !header.isEmpty
            && constantTimeEquals(Array(file.trustPublicKey.fingerprint.utf8), Array(fingerprint.lowercased().utf8))
            && TrustFields(of: file).areVouchedFor(by: file.trustSignature, vaultID: file.vaultID)
            && file.signingPublicKey.isValid(signature: file.headerSignature, of: AAD.headerSignature(header: header))
    }
}

/// What a trust statement binds, with the trust key that signs it: the key epoch, the signing
/// public key and (v3) the team log's head and the member slots, or (v2) the member removals, under
/// the trust public key (docs/FORMAT.md, "trust statement").
struct TrustFields: Equatable {
    var version: UInt16
    var keyEpoch: UInt64
    var signingPublicKey: SigningPublicKey
    var teamLogHead: [UInt8]
    var memberSlots: [UInt8]
    var memberRemovals: [UInt8]
    var trustPublicKey: TrustPublicKey

    init(of file: VaultFile) {
        version = file.version
        keyEpoch = file.keyEpoch
        signingPublicKey = file.signingPublicKey
        teamLogHead = file.teamLog?.head ?? []
        memberSlots = file.hasTeamLog ? file.encodedMemberSlots : []
        memberRemovals = file.memberRemovals
        trustPublicKey = file.trustPublicKey
    }

    func statement(vaultID: [UInt8]) -> [UInt8] {
        guard version >= 3 else {
            return AAD.trustStatement(
                vaultID: vaultID, keyEpoch: keyEpoch, signingPublicKey: signingPublicKey, memberRemovals: memberRemovals)
        }
        return AAD.trustStatement(
            vaultID: vaultID, keyEpoch: keyEpoch, signingPublicKey: signingPublicKey,
            teamLogHead: teamLogHead, memberSlots: memberSlots)
    }

    /// Whether `signature` is the trust key's signature of this statement.
    func areVouchedFor(by signature: [UInt8], vaultID: [UInt8]) -> Bool {
        trustPublicKey.isValid(signature: signature, of: statement(vaultID: vaultID))
    }
}
