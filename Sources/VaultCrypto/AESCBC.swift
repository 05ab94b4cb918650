internal import COpenSSL

/// AES-128-CBC with PKCS#7 padding: the cipher of the Secret Service's
/// `dh-ietf1024-sha256-aes128-cbc-pkcs7` sessions, and nothing else in vault
/// (it is not authenticated: the session's peer is the bus, not a file).
package enum AES128CBC {
    /// The key size, in bytes.
    package static let keySize = 16
    /// The IV size (one block), in bytes.
    package static let ivSize = 16

    /// Encrypts `plaintext` under a 16-byte key and IV, padded to whole blocks.
    package static func encrypt(_ plaintext: SecretBytes, key: SecretBytes, iv: [UInt8]) throws -> [UInt8] {
        try run(encrypting: true, plaintext, key: key, iv: iv).copyBytes()
    }

    /// Decrypts and unpads; throws `authenticationFailed` for a ciphertext whose padding is wrong.
    package static func decrypt(_ ciphertext: [UInt8], key: SecretBytes, iv: [UInt8]) throws -> SecretBytes {
        guard !ciphertext.isEmpty, ciphertext.count % 16 == 0 else { throw CryptoError.authenticationFailed }
        return try run(encrypting: false, SecretBytes(ciphertext), key: key, iv: iv)
    }

    private static func run(encrypting: Bool, _ input: SecretBytes, key: SecretBytes, iv: [UInt8]) throws -> SecretBytes {
        guard key.count == keySize, iv.count == ivSize else {
            throw CryptoError.invalidParameters("AES-128-CBC takes a 16-byte key and IV, got \(key.count) and \(iv.count)")
        }
        let context = try check(EVP_CIPHER_CTX_new(), "EVP_CIPHER_CTX_new")
        defer { EVP_CIPHER_CTX_free(context) }
        try key.withUnsafeBytes { keyBytes in
            try check(
                EVP_CipherInit_ex(
                    context, EVP_aes_128_cbc(), nil, keyBytes.bindMemory(to: UInt8.self).baseAddress, iv,
                    encrypting ? 1 : 0), "EVP_CipherInit_ex")
        }
        let output = SecretBytes(count: input.count + 16)
        var written: Int32 = 0
        var final: Int32 = 0
        let ok = output.withUnsafeMutableBytes { out -> Bool in
            let target = out.bindMemory(to: UInt8.self).baseAddress!
            let updated = input.withUnsafeBytes { inBytes in
                EVP_CipherUpdate(context, target, &written, inBytes.bindMemory(to: UInt8.self).baseAddress, Int32(input.count))
            }
            return updated == 1 && EVP_CipherFinal_ex(context, target + Int(written), &final) == 1
        }
        guard ok else {
            if encrypting { throw openSSLError("EVP_CipherFinal_ex") }
            ERR_clear_error()
            throw CryptoError.authenticationFailed
        }
        return output.withUnsafeBytes { SecretBytes(UnsafeRawBufferPointer(rebasing: $0.prefix(Int(written + final)))) }
    }
}
