#if canImport(Glibc)
import Glibc
#endif
import Testing
import VaultCrypto

@Suite("LockedArena")
struct LockedArenaTests {
    /// Whether the kernel lets this process lock at least `bytes` (root, or RLIMIT_MEMLOCK high enough).
    static func mayLock(_ bytes: Int) -> Bool {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(__RLIMIT_MEMLOCK.rawValue), &limit)
        return getuid() == 0 || limit.rlim_cur == rlim_t.max || Int(limit.rlim_cur) >= bytes
    }

    /// The `VmFlags` of the mapping that holds `address`, from /proc/self/smaps ("lo" = locked).
    static func mappingFlags(_ address: UnsafeRawPointer) -> [String] {
        guard let file = fopen("/proc/self/smaps", "r") else { return [] }
        defer { fclose(file) }
        let target = UInt(bitPattern: address)
        var inside = false
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) > 0 {
            let text = String(cString: line!)
            if let dash = text.firstIndex(of: "-"), let space = text.firstIndex(of: " "), dash < space,
                let low = UInt(text[..<dash], radix: 16), let high = UInt(text[text.index(after: dash)..<space], radix: 16)
            {
                inside = low <= target && target < high
            } else if inside, text.hasPrefix("VmFlags:") {
                return text.dropFirst("VmFlags:".count).split(separator: " ").map { $0.trimmingCharacters() }
            }
        }
        return []
    }

    @Test("allocations are zeroed, aligned, distinct and inside one region until it is full")
    func allocation() {
        let arena = LockedArena(regionSize: 4096)
        let a = arena.allocate(byteCount: 10)
        let b = arena.allocate(byteCount: 33)
        let c = arena.allocate(byteCount: 0)
        for (pointer, size) in [(a, 10), (b, 33), (c, 1)] {
            #expect(Int(bitPattern: pointer) % LockedArena.granule == 0)
            #expect(UnsafeRawBufferPointer(start: pointer, count: size).allSatisfy { $0 == 0 })
        }
        #expect(b - a == 16 && c - b == 48, "first fit packs allocations in granules")
        #expect(arena.usage.regions == 1)
        #expect(arena.usage.liveBytes == 16 + 48 + 16)
        let big = arena.allocate(byteCount: 10_000)
        #expect(arena.usage.regions == 2, "a block larger than the free space gets a region of its own")
        #expect(arena.usage.mappedBytes == 4096 + 12_288)
        for (pointer, size) in [(a, 10), (b, 33), (c, 0), (big, 10_000)] { arena.deallocate(pointer, byteCount: size) }
        #expect(arena.usage.liveBytes == 0)
    }

    @Test("freed blocks are reused, and merged with free neighbours so a larger block fits again")
    func reuse() {
        let arena = LockedArena(regionSize: 4096)
        let first = arena.allocate(byteCount: 16)
        let second = arena.allocate(byteCount: 16)
        let third = arena.allocate(byteCount: 16)
        arena.deallocate(second, byteCount: 16)
        #expect(arena.allocate(byteCount: 16) == second, "the freed block is the first fit")
        arena.deallocate(second, byteCount: 16)
        arena.deallocate(first, byteCount: 16)
        #expect(arena.allocate(byteCount: 32) == first, "two freed neighbours merge into one block")
        arena.deallocate(first, byteCount: 32)
        arena.deallocate(third, byteCount: 16)
        #expect(arena.allocate(byteCount: 4096) == first, "the whole region is one free block again")
        #expect(arena.usage.regions == 1)
    }

    @Test("a region passed over for holes too small is tried again once a free makes a hole large enough")
    func regionTriedAgainAfterAFree() {
        let arena = LockedArena(regionSize: 4096)
        let blocks = (0..<256).map { _ in arena.allocate(byteCount: 16) }
        arena.deallocate(blocks[10], byteCount: 16)
        let elsewhere = arena.allocate(byteCount: 32)
        #expect(arena.usage.regions == 2, "a 16-byte hole does not hold 32 bytes")
        arena.deallocate(blocks[11], byteCount: 16)
        let again = arena.allocate(byteCount: 32)
        #expect(again == blocks[10], "the two freed neighbours make a 32-byte hole in the first region")
        arena.deallocate(again, byteCount: 32)
        arena.deallocate(elsewhere, byteCount: 32)
        for (index, block) in blocks.enumerated() where index != 10 && index != 11 { arena.deallocate(block, byteCount: 16) }
        #expect(arena.usage.liveBytes == 0)
    }

    @Test("freeing wipes the bytes at once, and the next allocation there starts from zero")
    func wipeOnFree() {
        let arena = LockedArena(regionSize: 4096)
        let neighbour = arena.allocate(byteCount: 16)
        let secret = arena.allocate(byteCount: 32)
        secret.initializeMemory(as: UInt8.self, repeating: 0xA5, count: 32)
        arena.deallocate(secret, byteCount: 32)
        // The region stays mapped while the arena lives, so reading the freed block is safe here.
        #expect(UnsafeRawBufferPointer(start: secret, count: 32).allSatisfy { $0 == 0 })
        let again = arena.allocate(byteCount: 32)
        #expect(again == secret)
        #expect(UnsafeRawBufferPointer(start: again, count: 32).allSatisfy { $0 == 0 })
        arena.deallocate(again, byteCount: 32)
        arena.deallocate(neighbour, byteCount: 16)
    }

    @Test("freeing one secret never unlocks the page another live secret shares")
    func noUnlockOfSharedPage() throws {
        try #require(LockedArenaTests.mayLock(64 * 1024), "RLIMIT_MEMLOCK allows no locking here")
        let arena = LockedArena(regionSize: 4096)
        let first = arena.allocate(byteCount: 24)
        let second = arena.allocate(byteCount: 24)
        #expect(Int(bitPattern: first) / LockedArena.pageSize == Int(bitPattern: second) / LockedArena.pageSize)
        #expect(arena.usage.lockedBytes == 4096)
        #expect(LockedArenaTests.mappingFlags(second).contains("lo"))
        arena.deallocate(first, byteCount: 24)
        #expect(LockedArenaTests.mappingFlags(second).contains("lo"), "the page of the live secret is still locked")
        #expect(LockedArenaTests.mappingFlags(second).contains("dd"), "and left out of core dumps")
        arena.deallocate(second, byteCount: 24)
    }

    @Test("SecretBytes live in the shared arena's locked memory")
    func secretBytesAreLocked() throws {
        try #require(LockedArenaTests.mayLock(64 * 1024), "RLIMIT_MEMLOCK allows no locking here")
        let secret = SecretBytes(random: 24)
        #expect(LockedArena.shared.usage.lockedBytes > 0)
        secret.withUnsafeBytes { #expect(LockedArenaTests.mappingFlags($0.baseAddress!).contains("lo")) }
    }
}

extension Substring {
    fileprivate func trimmingCharacters() -> String {
        String(self.filter { !$0.isWhitespace })
    }
}
