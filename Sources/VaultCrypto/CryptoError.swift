internal import COpenSSL

/// The errors thrown by VaultCrypto.
package enum CryptoError: Error, Equatable {
    /// An OpenSSL call failed; the string names the call and carries OpenSSL's error queue.
    case openSSL(String)
    /// Decryption found that the ciphertext, tag, associated data or key do not match.
    case authenticationFailed
    /// A caller passed a key, nonce, length or cost parameter outside what the primitive accepts.
    case invalidParameters(String)
}

/// The one place OpenSSL results are checked: a result of 1 (or more) is success,
/// anything else drains the error queue into `CryptoError.openSSL`.
func check(_ result: Int32, _ call: StaticString) throws {
    guard result > 0 else { throw openSSLError(call) }
}

/// Pointer form of `check`: a NULL from an allocating or fetching call is a failure.
func check<Pointer>(_ result: Pointer?, _ call: StaticString) throws -> Pointer {
    guard let result else { throw openSSLError(call) }
    return result
}

/// Empties this thread's OpenSSL error queue into one message, oldest error first.
func openSSLError(_ call: StaticString) -> CryptoError {
    var reasons: [String] = []
    while true {
        let code = ERR_get_error()
        if code == 0 { break }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        reasons.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
    let detail = reasons.isEmpty ? "no error reported" : reasons.joined(separator: "; ")
    return .openSSL("\(call): \(detail)")
}
