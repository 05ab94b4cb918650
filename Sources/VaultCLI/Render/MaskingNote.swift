import VaultCore

extension Terminal {
    /// Says once, on stderr, how many secrets are too short to mask (vault run, vault redact).
    func noteUnmaskedSecrets(_ patterns: MaskPatterns) {
        let count = patterns.tooShortCount
        guard count > 0 else { return }
        diagnostics.note(
            "\(count) secret\(count == 1 ? " is" : "s are") shorter than \(MaskPatterns.minimumLength) bytes and not masked in the output")
    }
}
