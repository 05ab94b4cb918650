import VaultCrypto

/// The team log's payloads (names, recipients, scopes): `AES-GCM(WK, bytes(payload) each,
/// AAD = AAD.teamLog)`, bound to the log's head (docs/TEAMS.md, "The team log").
enum SealedTeamLogPayloads {
    /// `payloads` sealed under `wrapKey` for the log whose head is `head`.
    static func seal(_ payloads: [[UInt8]], under wrapKey: WrapKey, vaultID: [UInt8], head: [UInt8]) throws -> [UInt8] {
        var w = ByteWriter(capacity: payloads.reduce(0) { $0 + 4 + $1.count })
        for payload in payloads { w.lengthPrefixed(payload) }
        return try AESGCM.seal(SecretBytes(w.bytes), key: wrapKey.secret, aad: AAD.teamLog(vaultID: vaultID, head: head))
    }

    /// The `count` payloads in `sealed`, each passed to `check` with its index as it is read.
    /// Throws `MalformedInput` when they do not open or parse, or what `check` throws.
    static func open(
        _ sealed: [UInt8], under wrapKey: WrapKey, vaultID: [UInt8], head: [UInt8], count: Int,
        check: (_ index: Int, _ payload: [UInt8]) throws -> Void
    ) throws -> [[UInt8]] {
        guard let plaintext = try? AESGCM.open(sealed, key: wrapKey.secret, aad: AAD.teamLog(vaultID: vaultID, head: head)) else {
            throw MalformedInput(.doesNotOpen(.teamLogPayloads))
        }
        var r = ByteReader(plaintext.copyBytes())
        var opened: [[UInt8]] = []
        for index in 0..<count {
            let payload = Array(try r.lengthPrefixed(limit: TeamChange.maxPayloadBytes))
            try check(index, payload)
            opened.append(payload)
        }
        guard r.isAtEnd else { throw MalformedInput(.trailingBytes(after: .teamLogPayloads)) }
        return opened
    }
}
