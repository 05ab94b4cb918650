extension ItemStore {
    /// The one-time code of the item matching `query` at `unixTime`. A TOTP
    /// item is only read. An HOTP item gives the code of its stored counter
    /// and stores the counter one higher in the same transaction, so no code
    /// is given twice. Throws `OneTimeCodeError` when the item's secret is not
    /// a one-time code secret, and the store's errors.
    public func oneTimeCode(matching query: Query, atUnixTime unixTime: Int64) throws -> String {
        let secret = try OneTimeCodeSecret(parsing: try item(matching: query).secret)
        guard case .hotp = secret.kind else { return secret.code(atUnixTime: unixTime) }
        var code = ""
        _ = try replaceSecret(matching: query, keepingPrevious: false) { item in
            let current = try OneTimeCodeSecret(parsing: item.secret)
            code = current.code(atUnixTime: unixTime)
            return current.advanced()
        }
        return code
    }
}
