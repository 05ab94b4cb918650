#if canImport(Glibc)
import Glibc
#endif
internal import COpenSSL
import Synchronization

/// Memory for secrets: regions mapped and `mlock`ed once, carved into
/// allocations that are wiped with `OPENSSL_cleanse` when freed.
///
/// Locking page by page per buffer goes wrong twice: `munlock` of a freed
/// buffer unlocks the whole page, though another live secret may share it,
/// and every buffer costs an mlock/munlock pair of system calls. Here a region
/// is locked when it is mapped and stays locked while the arena lives, so
/// freeing one secret never unlocks another's page, and most allocations make
/// no system call at all.
///
/// Free memory in the arena is always zero (fresh mappings are, and freed
/// blocks are wiped), so allocations come back zeroed without a memset.
/// Where `mlock` is refused (RLIMIT_MEMLOCK too low), the region is used
/// unlocked: secrets are still wiped on free, only not kept out of swap.
/// Regions are also excluded from core dumps (`MADV_DONTDUMP`).
package final class LockedArena: @unchecked Sendable {
    /// The arena every `SecretBytes` lives in.
    package static let shared = LockedArena()

    /// Allocations are multiples of this, and aligned to it.
    package static let granule = 16
    /// The size of a region mapped for small allocations; a larger one gets a region of its own size.
    package let regionSize: Int

    private struct Region {
        let base: UnsafeMutableRawPointer
        let size: Int
        let locked: Bool
        /// Free blocks as (offset, length), sorted by offset, never adjacent (merged on free).
        var free: [(offset: Int, length: Int)]
        /// No free block is longer than this: lowered when a search of `free` finds none long
        /// enough, so a region left with small holes is passed over without a search.
        var longestFree: Int
    }

    private let regions = Mutex<[Region]>([])

    /// An arena whose regions are at least `regionSize` bytes (rounded up to whole pages).
    package init(regionSize: Int = 64 * 1024) {
        let page = LockedArena.pageSize
        self.regionSize = Swift.max(page, (regionSize + page - 1) / page * page)
    }

    deinit {
        regions.withLock { regions in
            for region in regions {
                OPENSSL_cleanse(region.base, region.size)
                if region.locked { munlock(region.base, region.size) }
                munmap(region.base, region.size)
            }
        }
    }

    /// The size of a memory page.
    package static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// `byteCount` zero bytes (at least one granule), aligned to `granule`. Traps when memory cannot be mapped.
    package func allocate(byteCount: Int) -> UnsafeMutableRawPointer {
        precondition(byteCount >= 0, "LockedArena: negative size")
        let length = LockedArena.rounded(byteCount)
        return regions.withLock { regions in
            for index in regions.indices where regions[index].longestFree >= length {
                if let pointer = LockedArena.take(length, from: &regions[index]) { return pointer }
            }
            var region = mapRegion(atLeast: length)
            let pointer = LockedArena.take(length, from: &region)!
            regions.append(region)
            return pointer
        }
    }

    /// Wipes the `byteCount` bytes at `pointer` (as given to `allocate`) and makes them free
    /// for reuse. The region stays mapped and locked. Traps on a pointer the arena did not give out.
    package func deallocate(_ pointer: UnsafeMutableRawPointer, byteCount: Int) {
        let length = LockedArena.rounded(byteCount)
        OPENSSL_cleanse(pointer, length)
        // The lock's closure takes the address, not the pointer: a raw pointer is not Sendable.
        let address = Int(bitPattern: pointer)
        regions.withLock { regions in
            guard
                let index = regions.firstIndex(where: {
                    address >= Int(bitPattern: $0.base) && address < Int(bitPattern: $0.base) + $0.size
                })
            else {
                preconditionFailure("LockedArena: freeing memory it did not allocate")
            }
            LockedArena.give(offset: address - Int(bitPattern: regions[index].base), length: length, to: &regions[index])
        }
    }

    /// What the arena holds now, for tests and measurements.
    package struct Usage: Equatable, Sendable {
        /// Regions mapped.
        package var regions: Int
        /// Bytes mapped in all regions.
        package var mappedBytes: Int
        /// Bytes in regions that `mlock` accepted.
        package var lockedBytes: Int
        /// Bytes handed out and not yet freed (rounded up to granules).
        package var liveBytes: Int
    }

    /// The current usage.
    package var usage: Usage {
        regions.withLock { regions in
            var usage = Usage(regions: regions.count, mappedBytes: 0, lockedBytes: 0, liveBytes: 0)
            for region in regions {
                usage.mappedBytes += region.size
                if region.locked { usage.lockedBytes += region.size }
                usage.liveBytes += region.size - region.free.reduce(0) { $0 + $1.length }
            }
            return usage
        }
    }

    private static func rounded(_ byteCount: Int) -> Int {
        Swift.max(granule, (byteCount + granule - 1) / granule * granule)
    }

    private func mapRegion(atLeast length: Int) -> Region {
        let page = LockedArena.pageSize
        let size = Swift.max(regionSize, (length + page - 1) / page * page)
        let memory = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let memory, memory != MAP_FAILED else { fatalError("LockedArena: cannot map \(size) bytes") }
        _ = madvise(memory, size, MADV_DONTDUMP)
        return Region(base: memory, size: size, locked: mlock(memory, size) == 0, free: [(0, size)], longestFree: size)
    }

    /// First fit: the start of the first free block of the region long enough, shortened by `length`.
    private static func take(_ length: Int, from region: inout Region) -> UnsafeMutableRawPointer? {
        guard let index = region.free.firstIndex(where: { $0.length >= length }) else {
            region.longestFree = region.free.map(\.length).max() ?? 0
            return nil
        }
        let block = region.free[index]
        if block.length == length {
            region.free.remove(at: index)
        } else {
            region.free[index] = (block.offset + length, block.length - length)
        }
        return region.base + block.offset
    }

    /// Returns a block to the region's free list, merged with free neighbours.
    private static func give(offset: Int, length: Int, to region: inout Region) {
        var lower = 0
        var upper = region.free.count
        while lower < upper {
            let middle = (lower + upper) / 2
            if region.free[middle].offset < offset { lower = middle + 1 } else { upper = middle }
        }
        var block = (offset: offset, length: length)
        defer { region.longestFree = Swift.max(region.longestFree, block.length) }
        if lower < region.free.count {
            let next = region.free[lower]
            precondition(offset + length <= next.offset, "LockedArena: freeing memory that is already free")
            if offset + length == next.offset {
                block.length += next.length
                region.free.remove(at: lower)
            }
        }
        if lower > 0 {
            let previous = region.free[lower - 1]
            precondition(previous.offset + previous.length <= offset, "LockedArena: freeing memory that is already free")
            if previous.offset + previous.length == offset {
                region.free[lower - 1].length += block.length
                block.length = region.free[lower - 1].length
                return
            }
        }
        region.free.insert(block, at: lower)
    }
}
