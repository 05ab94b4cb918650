#if canImport(Glibc)
import Glibc
#endif
import VaultCrypto

/// A fixed count of zeroed elements in locked memory (`LockedArena.shared`), wiped and freed by
/// `release`: where the matchers keep patterns, which are secrets, and what is derived from them.
struct LockedBuffer<Element: BitwiseCopyable> {
    let base: UnsafeMutablePointer<Element>
    let count: Int

    init(count: Int) {
        self.count = max(count, 1)
        let byteCount = self.count * MemoryLayout<Element>.stride
        let raw = LockedArena.shared.allocate(byteCount: byteCount)
        memset(raw, 0, byteCount)
        base = raw.bindMemory(to: Element.self, capacity: self.count)
    }

    subscript(index: Int) -> Element {
        @inline(__always) get { base[index] }
        @inline(__always) nonmutating set { base[index] = newValue }
    }

    /// Wipes and frees the memory; the buffer may not be used after.
    func release() {
        let byteCount = count * MemoryLayout<Element>.stride
        memset(base, 0, byteCount)
        LockedArena.shared.deallocate(UnsafeMutableRawPointer(base), byteCount: byteCount)
    }
}
