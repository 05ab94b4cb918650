import Testing
@testable import VaultCore
import VaultCrypto

/// The key ring is a value: a copy holds the keys the original held when copied, and a key
/// changed in one (a group added, a class key replaced) is not in the other, nor is what the
/// original derived before and keeps in its cache. Its typed keys derive the bytes docs/FORMAT.md
/// gives ("Keys") and compare by their bytes.
@Suite struct KeyRingTests {
    static let vaultID = [UInt8](repeating: 0x42, count: 16)
    static let groupID = GroupID(7)
    static let classID = Accessibility.whenUnlocked.fileID

    static func ring() -> KeyRing {
        var ring = KeyRing(vaultID: vaultID, masterKey: .random(), deviceKey: nil)
        ring.addClassKey(.random(), classID: classID)
        ring.addGroup(ring.groupKeys(.default, groupKey: .random()), id: groupID)
        return ring
    }

    @Test func aCopyKeepsItsKeysWhenTheOriginalChanges() throws {
        var original = Self.ring()
        let baseBefore = try original.baseKey(groupID: Self.groupID, classID: Self.classID)
        let copy = original
        original.addClassKey(.random(), classID: Self.classID)
        original.removeGroup(id: Self.groupID)
        #expect(try copy.baseKey(groupID: Self.groupID, classID: Self.classID) == baseBefore)
        #expect(copy.groups[Self.groupID] != nil && original.groups[Self.groupID] == nil)
    }

    @Test func aNewClassKeyIsNotAnsweredFromTheCopysCache() throws {
        let original = Self.ring()
        let baseBefore = try original.baseKey(groupID: Self.groupID, classID: Self.classID)
        var copy = original
        copy.addClassKey(.random(), classID: Self.classID)
        #expect(try copy.baseKey(groupID: Self.groupID, classID: Self.classID) != baseBefore)
        #expect(try original.baseKey(groupID: Self.groupID, classID: Self.classID) == baseBefore)
    }

    /// Keys of one role are equal exactly when their bytes are, whichever buffer holds them.
    @Test func keysCompareByTheirBytes() {
        let bytes = (0..<32).map { UInt8($0) }
        #expect(GroupKey(SecretBytes(bytes)) == GroupKey(SecretBytes(bytes)))
        for position in [0, 15, 31] {
            var other = bytes
            other[position] ^= 0x01
            #expect(GroupKey(SecretBytes(bytes)) != GroupKey(SecretBytes(other)))
        }
        #expect(GroupKey(SecretBytes(bytes)) != GroupKey(SecretBytes(Array(bytes.prefix(31)))))
    }

    /// Each derivation, from fixed keys, against HKDF-SHA256 and HMAC-SHA256 computed apart from
    /// vault (Python's hmac and hashlib) from the labels and contexts docs/FORMAT.md gives.
    @Test func derivationsGiveTheFormatsBytes() {
        func hex(_ key: some TypedKey) -> String { hex(key.secret.copyBytes()) }
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        let vaultID = Self.vaultID
        let masterKey = MasterKey(SecretBytes((0..<32).map { UInt8($0) }))
        let groupKey = GroupKey(SecretBytes((32..<64).map { UInt8($0) }))
        let classKey = ClassKey(SecretBytes((64..<96).map { UInt8($0) }))
        #expect(
            hex(masterKey.headerMACKey(formatVersion: 1, vaultID: vaultID))
                == "f6f3ad09c06199cc7e66b5c54f0365278ed7b6435d684d3054dd3a5d4e9cb27a")
        #expect(
            hex(masterKey.headerMACKey(formatVersion: 2, vaultID: vaultID))
                == "1818c33d54497263606a2f15bb45746f9ba467090673bd74645da7e4df5954cb")
        #expect(hex(masterKey.wrapKey(vaultID: vaultID)) == "bec6280a7d4060d4a4bffe4e485c966e801c9abf90cbb15b4809d6c12e21b9be")
        #expect(hex(masterKey.trustWrapKey(vaultID: vaultID)) == "54ae34778d3db3412fefd76857661fdc62fc4040b8bef0b3a0076f064c636d60")
        let lookupKey = groupKey.lookupKey(vaultID: vaultID)
        #expect(hex(lookupKey) == "607d139f4238d86c2bcbf6e31f7342308c10517bcbb58a5347c757c2ba88fc04")
        #expect(
            hex(groupKey.indexMACKey(formatVersion: 2, vaultID: vaultID))
                == "7e2e560e0a912c260a9c9c33170b4504574fd762889a3f269d5dc11978cf99d8")
        #expect(hex(lookupKey.readMACKey(vaultID: vaultID)) == "1d99c2d24214b67ce8605e8d5e672e5a52ecce5b5d600ada33f43f3313887832")
        #expect(
            hex(groupKey.baseKey(classKey, groupID: Self.groupID, classID: Self.classID, vaultID: vaultID))
                == "101fe679a711a88037260441aa990a458c7a40d38cf57305a57b3dd166c12db6")
        #expect(hex(groupKey.check(groupID: Self.groupID, vaultID: vaultID)) == "cd6f0194c2615ec6c7c27c6242434a45")
    }
}
