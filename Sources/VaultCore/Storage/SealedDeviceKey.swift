import VaultCrypto

/// A device key sealed by the TPM, as kept on disk beside where the clear key would be
/// (`<vault id>.tpm`, 0600): magic ‖ u8 flags (bit 0: a PIN) ‖ u8 PCR count ‖ the PCR
/// numbers ‖ the TPM's blob (its marshalled public and private parts). The blob is
/// ciphertext only this TPM opens, under the policy the PCRs and the PIN say.
struct SealedDeviceKey: Equatable {
    static let magic = Array("VTPMDK01".utf8)
    static let maxBlobSize = 1024

    let pcrs: [UInt8]
    let hasPIN: Bool
    let blob: [UInt8]

    /// Where the sealed device key of `vaultID` lives on this machine.
    static func path(vaultID: [UInt8], host: HostContext) -> String {
        host.deviceKeyDirectory + "/" + hex(vaultID) + ".tpm"
    }

    func encoded() -> [UInt8] {
        var writer = ByteWriter()
        writer.raw(SealedDeviceKey.magic)
        writer.u8(hasPIN ? 1 : 0)
        writer.u8(UInt8(pcrs.count))
        writer.raw(pcrs)
        writer.raw(blob)
        return writer.bytes
    }

    /// The sealed key in `bytes`; throws `corrupted` naming `path` when they are not one.
    static func decode(_ bytes: [UInt8], path: String) throws -> SealedDeviceKey {
        var reader = ByteReader(bytes)
        do {
            guard Array(try reader.raw(magic.count)) == magic else { throw MalformedInput(.notA(.sealedDeviceKey)) }
            let flags = try reader.u8()
            let pcrs = Array(try reader.raw(Int(try reader.u8())))
            guard flags <= 1, pcrs.allSatisfy({ $0 < 24 }), (1...maxBlobSize).contains(reader.remaining) else {
                throw MalformedInput(.violates(.malformedSealedDeviceKey))
            }
            return SealedDeviceKey(pcrs: pcrs, hasPIN: flags == 1, blob: Array(try reader.raw(reader.remaining)))
        } catch let error as MalformedInput {
            throw VaultError.corrupted(path: path, detail: error.damage)
        }
    }

    /// The sealed key at `path`: a regular 0600 file of ours, never a link.
    static func read(_ path: String) throws -> SealedDeviceKey {
        guard FileSystem.isRegularFile(path) else { throw VaultError.symbolicLink(path: path) }
        return try decode(try FileSystem.read(path, requirePrivate: true, missing: .io(path: path, operation: .open, errno: 2)), path: path)
    }

    /// Seals `key` with `tpm` under its PCRs (and `pin`).
    static func seal(_ key: DeviceKey, tpm: TPMAccess, pin: SecretBytes?) throws -> SealedDeviceKey {
        let blob = try tpm.sealer.seal(key.secret, pcrs: tpm.pcrs, pin: pin)
        return SealedDeviceKey(pcrs: tpm.pcrs, hasPIN: pin != nil, blob: blob)
    }

    /// The device key, unsealed by `tpm` (asking its PIN when the seal has one). Throws `VaultError.tpm`.
    func unseal(tpm: TPMAccess?) throws -> DeviceKey {
        do {
            guard let tpm else { throw TPMFailure.noTPM }
            var pin: SecretBytes?
            if hasPIN {
                guard let ask = tpm.askPIN else { throw TPMFailure.pinNeeded }
                pin = try ask()
            }
            let key = try tpm.sealer.unseal(blob, pcrs: pcrs, pin: pin)
            guard key.count == DeviceKeyStore.size else { throw TPMFailure.failed(step: .unsealing, code: 0) }
            return DeviceKey(key)
        } catch let failure as TPMFailure {
            throw VaultError.tpm(failure)
        }
    }
}
