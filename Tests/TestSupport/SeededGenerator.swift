#if canImport(Glibc)
import Glibc
#endif

/// The random numbers of a randomized test: a SplitMix64 stream from a seed
/// that is printed, so a failing run can be repeated exactly with
/// `VAULT_TEST_SEED=SEED swift test --filter TEST`. Without that variable
/// each run takes a fresh seed.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    public let seed: UInt64
    private var state: UInt64

    /// Prints "`test`: seed N" on stdout, where the test log keeps it.
    public init(test: String) {
        if let text = getenv("VAULT_TEST_SEED").map({ String(cString: $0) }), let fixed = UInt64(text) {
            self.init(seed: fixed, test: test)
        } else {
            var system = SystemRandomNumberGenerator()
            self.init(seed: system.next(), test: test)
        }
    }

    /// A stream from `seed`, printed as `init(test:)` prints it (a test that takes its seeds as arguments).
    public init(seed: UInt64, test: String) {
        self.seed = seed
        state = seed
        print("\(test): seed \(seed) (VAULT_TEST_SEED=\(seed) repeats it)")
    }

    /// A stream of its own for worker `index` of a test that took `parent` (not printed: the parent's seed repeats it).
    public init(derivedFrom parent: SeededGenerator, index: Int) {
        seed = parent.seed &+ UInt64(index) &* 0xD1B5_4A32_D192_ED03
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
