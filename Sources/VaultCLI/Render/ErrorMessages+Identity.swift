import VaultCore

/// The words for Identity/'s errors.
extension ErrorReport {
    /// A IdentityError in words.
    static func describe(_ error: IdentityError) -> ErrorReport {
        let status = error.status
        switch error {
        case .invalidRecipient(let text, let reason):
            return ErrorReport(
                status: status, message: "cannot use \(quoted(String(text.prefix(80)))) as a recipient: \(words(reason))",
                hint: "ask the member for the line 'vault identity new' (or age-keygen) printed: age1…")
        case .identityExists(let path):
            return ErrorReport(
                status: status, message: "an identity file is already at \(shownPath(path)); vault never overwrites one",
                hint: "'vault identity show' prints its recipient; give --out FILE for another identity")
        case .invalidIdentity(let source, let line, let reason):
            return ErrorReport(
                status: status, message: "cannot use \(source)\(line.map { " (line \($0))" } ?? "") as an identity: \(words(reason))",
                hint: "make one with 'vault identity new', or name an age-keygen identity file")
        }
    }
}
