/// The value of `--credential` or `VAULT_CREDENTIAL`: a file's path, the
/// credential's text (as a CI secret variable holds it, with or without its
/// `vault-credential-v1:` prefix), or that text in base64 (as `base64 FILE`
/// prints it, in 76-column lines). A value that is none of these is never
/// echoed in a message: it may be a secret put in the wrong place.
extension ScopedCredential {
    /// Reads the credential `value` names or holds; `source` ("VAULT_CREDENTIAL")
    /// names it in messages about credential text. Throws `noSuchFile` naming
    /// the path only when the value is `clearlyAPath`, else `unrecognizedCredential`.
    package static func load(_ value: String, source: String) throws -> ScopedCredential {
        let compact = String(value.filter { !$0.isWhitespace })
        if compact.hasPrefix(textPrefix) { return try decode(compact, source: source) }
        if FileSystem.exists(value) { return try read(path: value) }
        if let decoded = Base64.decode(compact), let text = String(validating: decoded, as: UTF8.self),
            text.hasPrefix(textPrefix)
        {
            return try decode(String(text.filter { !$0.isWhitespace }), source: source)
        }
        // A credential's text is hundreds of characters; a short value is a path even when it happens to be base64.
        if compact.count >= 64, Base64.decode(compact) != nil { return try decode(textPrefix + compact, source: source) }
        if clearlyAPath(value) { throw VaultError.noSuchFile(path: value, kind: .credential) }
        throw VaultError.unrecognizedCredential(length: value.count)
    }

    /// Whether a value is shown in messages as a path: it starts with `/`,
    /// `./`, `../` or `~/`, has no whitespace and no credential tag, and its
    /// directory exists and is not `/` (base64 starts with `/` one time in
    /// 64: a key that does is not echoed as if it were a path).
    static func clearlyAPath(_ value: String) -> Bool {
        guard ["/", "./", "../", "~/"].contains(where: value.hasPrefix),
            !value.contains(where: \.isWhitespace), !value.contains("vault-credential")
        else { return false }
        let directory = FileSystem.directoryOf(value)
        return directory != "/" && (value.hasPrefix("~/") || FileSystem.exists(directory))
    }
}
