internal import COpenSSL

/// OpenSSL's cryptographically secure random generator.
package enum SecureRandom {
    /// Returns `count` bytes from `RAND_bytes`. Never throws: if the CSPRNG fails the
    /// process cannot safely make keys or nonces, so it stops with `fatalError`.
    package static func bytes(_ count: Int) -> [UInt8] {
        precondition(count >= 0, "SecureRandom.bytes count must not be negative")
        var result = [UInt8](repeating: 0, count: count)
        result.withUnsafeMutableBytes { fill($0) }
        return result
    }

    /// Fills `buffer` from `RAND_bytes`, in pieces that fit its `int` length.
    static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let start = buffer.baseAddress else { return }
        var offset = 0
        while offset < buffer.count {
            let piece = Swift.min(buffer.count - offset, Int(Int32.max))
            do {
                try check(RAND_bytes((start + offset).assumingMemoryBound(to: UInt8.self), Int32(piece)), "RAND_bytes")
            } catch {
                fatalError("SecureRandom: \(error)")
            }
            offset += piece
        }
    }
}
