import VaultCrypto

extension SecureRandom {
    /// A uniform integer in 0..<bound, by rejection sampling of 32-bit draws
    /// (a plain modulo would favour the low values).
    static func index(below bound: Int) -> Int {
        precondition(bound > 0 && bound <= Int(UInt32.max))
        let span = UInt64(UInt32.max) + 1
        let limit = span - span % UInt64(bound)
        while true {
            let draw = bytes(4).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            if draw < limit { return Int(draw % UInt64(bound)) }
        }
    }
}
