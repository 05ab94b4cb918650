import Testing
@testable import VaultCore
import VaultCrypto

/// The key ring is a value: a copy holds the keys the original held when copied, and a key
/// changed in one (a group added, a class key replaced) is not in the other, nor is what the
/// original derived before and keeps in its cache.
@Suite struct KeyRingTests {
    static let vaultID = [UInt8](repeating: 0x42, count: 16)
    static let groupID = GroupID(7)
    static let classID = Accessibility.whenUnlocked.fileID

    static func ring() -> KeyRing {
        var ring = KeyRing(vaultID: vaultID, masterKey: SecretBytes(random: 32), deviceKey: nil)
        ring.addClassKey(SecretBytes(random: 32), classID: classID)
        ring.addGroup(ring.groupKeys(.default, groupKey: SecretBytes(random: 32)), id: groupID)
        return ring
    }

    @Test func aCopyKeepsItsKeysWhenTheOriginalChanges() throws {
        var original = Self.ring()
        let baseBefore = try original.baseKey(groupID: Self.groupID, classID: Self.classID)
        let copy = original
        original.addClassKey(SecretBytes(random: 32), classID: Self.classID)
        original.removeGroup(id: Self.groupID)
        #expect(try copy.baseKey(groupID: Self.groupID, classID: Self.classID).constantTimeEquals(baseBefore))
        #expect(copy.groups[Self.groupID] != nil && original.groups[Self.groupID] == nil)
    }

    @Test func aNewClassKeyIsNotAnsweredFromTheCopysCache() throws {
        let original = Self.ring()
        let baseBefore = try original.baseKey(groupID: Self.groupID, classID: Self.classID)
        var copy = original
        copy.addClassKey(SecretBytes(random: 32), classID: Self.classID)
        #expect(!(try copy.baseKey(groupID: Self.groupID, classID: Self.classID).constantTimeEquals(baseBefore)))
        #expect(try original.baseKey(groupID: Self.groupID, classID: Self.classID).constantTimeEquals(baseBefore))
    }
}
