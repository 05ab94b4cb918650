import VaultCrypto

/// An unlock session's keys in its file: `AES-GCM(session key, master key ‖ device key if the TPM
/// seals it, AAD = AAD.session)`, the session key derived from the token's key and the session id
/// (`KeyLabel.session`), so neither the file nor the token alone opens anything.
enum SealedSession {
    /// `masterKey` (and `deviceKey`) sealed for the session file whose header is `header`.
    static func seal(
        masterKey: MasterKey, deviceKey: DeviceKey?, header: [UInt8], tokenKey: SecretBytes, sessionID: [UInt8],
        vaultID: [UInt8]
    ) throws -> [UInt8] {
        let keys = deviceKey.map { masterKey.secret.appending($0.secret) } ?? masterKey.secret
        return try AESGCM.seal(
            keys, key: sessionKey(tokenKey, sessionID, vaultID), aad: AAD.session(header: header, vaultID: vaultID, sessionID: sessionID))
    }

    /// The keys in `sealed`; nil when it does not open or holds neither a master key nor one and a device key.
    static func open(
        _ sealed: [UInt8], header: [UInt8], tokenKey: SecretBytes, sessionID: [UInt8],
        vaultID: [UInt8]
    ) -> (masterKey: MasterKey, deviceKey: DeviceKey?)? {
        guard
            let keys = try? AESGCM.open(
                sealed, key: sessionKey(tokenKey, sessionID, vaultID),
                aad: AAD.session(header: header, vaultID: vaultID, sessionID: sessionID)),
            [AESGCM.keySize, AESGCM.keySize + DeviceKeyStore.size].contains(keys.count)
        else { return nil }
        let masterKey = keys.withUnsafeBytes { MasterKey(SecretBytes(UnsafeRawBufferPointer(rebasing: $0[..<AESGCM.keySize]))) }
        let deviceKey =
            keys.count > AESGCM.keySize
            ? keys.withUnsafeBytes { DeviceKey(SecretBytes(UnsafeRawBufferPointer(rebasing: $0[AESGCM.keySize...]))) } : nil
        return (masterKey, deviceKey)
    }

    private static func sessionKey(_ tokenKey: SecretBytes, _ sessionID: [UInt8], _ vaultID: [UInt8]) -> SecretBytes {
        KeyRing.derive(tokenKey, .session, sessionID, vaultID: vaultID)
    }
}
