#if canImport(Glibc)
import Glibc
#endif
import Testing
import VaultCrypto

@Suite("ProcessHardening")
struct ProcessHardeningTests {
    @Test("disableCoreDumps sets RLIMIT_CORE to zero and can be called twice")
    func coreLimit() {
        ProcessHardening.disableCoreDumps()
        ProcessHardening.disableCoreDumps()
        var limit = rlimit()
        #expect(getrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &limit) == 0)
        #expect(limit.rlim_cur == 0)
        #expect(limit.rlim_max == 0)
    }
}
