import VaultCrypto

// A member slot sealed and opened: the key part under the member wrap key (WMK, from X25519 with the
// member's age recipient), AAD = AAD.memberKeys; the roster part under WK, AAD = AAD.memberInfo
// (docs/FORMAT.md, "Member slots"), as age's X25519 stanza wraps and unwraps in one place.
extension MemberSlot {
    /// A new slot for `member`, its key part holding `keys`, under a fresh ephemeral key.
    static func seal(_ member: Member, keys: MemberKeys, vaultID: [UInt8], wrapKey: WrapKey) throws -> MemberSlot {
        let ephemeral = SecretBytes(random: X25519.keySize)
        let share = try X25519.publicKey(of: ephemeral)
        let shared = try X25519.sharedSecret(privateKey: ephemeral, peer: member.recipient.publicKey)
        let wmk = try memberWrapKey(shared: shared, share: share, recipient: member.recipient, vaultID: vaultID)
        var payload = keys.encoded(name: member.name)
        defer { payload.wipeBytes() }
        let keyPart = try AESGCM.seal(SecretBytes(payload.bytes), key: wmk, aad: AAD.memberKeys(vaultID: vaultID, share: share))
        let rosterPart = try AESGCM.seal(
            SecretBytes(member.encodedRosterEntry()), key: wrapKey.secret,
            aad: AAD.memberInfo(vaultID: vaultID, share: share))
        return MemberSlot(ephemeralShare: share, keyPart: keyPart, rosterPart: rosterPart)
    }

    /// What `identity` opens of this slot: nil when the slot is not sealed to it (as age tries
    /// stanzas). Throws `MalformedInput` for a low-order ephemeral share (X25519 refuses it) and
    /// for a key part that opens but does not parse: damage, never keys.
    func open(with identity: AgeIdentity, vaultID: [UInt8]) throws -> (name: String, keys: MemberKeys)? {
        let shared: SecretBytes
        do {
            shared = try X25519.sharedSecret(privateKey: identity.privateKey, peer: ephemeralShare)
        } catch {
            throw MalformedInput(.violates(.lowOrderEphemeralShare))
        }
        let wmk = try MemberSlot.memberWrapKey(shared: shared, share: ephemeralShare, recipient: identity.recipient, vaultID: vaultID)
        guard let payload = try? AESGCM.open(keyPart, key: wmk, aad: AAD.memberKeys(vaultID: vaultID, share: ephemeralShare)) else {
            return nil
        }
        var bytes = payload.copyBytes()
        // Wiped after the reader that shares the buffer is gone, so the wipe is of that buffer, not a copy.
        defer { for index in bytes.indices { bytes[index] = 0 } }
        return try MemberKeys.decodeWhole(bytes)
    }

    /// The roster entry, with the wrap key (the owner's). Throws `MalformedInput` when it does not open or parse.
    func roster(wrapKey: WrapKey, vaultID: [UInt8]) throws -> Member {
        guard
            let plaintext = try? AESGCM.open(rosterPart, key: wrapKey.secret, aad: AAD.memberInfo(vaultID: vaultID, share: ephemeralShare))
        else {
            throw MalformedInput(.doesNotOpen(.memberRosterPart))
        }
        var r = ByteReader(plaintext.copyBytes())
        let member = try Member.decodeRosterEntry(from: &r)
        guard r.isAtEnd else { throw MalformedInput(.trailingBytes(after: .memberRosterEntry)) }
        return member
    }

    /// WMK = HKDF-SHA256(X25519 shared secret, salt = ephemeral share ‖ recipient, info = "vault v1 member" ‖ vault id).
    private static func memberWrapKey(shared: SecretBytes, share: [UInt8], recipient: AgeRecipient, vaultID: [UInt8]) throws -> SecretBytes
    {
        try HKDF.deriveKey(inputKeyMaterial: shared, salt: share + recipient.publicKey, info: KeyLabel.member.bytes + vaultID)
    }
}
