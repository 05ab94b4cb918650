/// A one-time code as `vault otp` gives it: the code, the item it came
/// from, and how long a TOTP code stays valid.
public struct OneTimeCode: Sendable {
    /// The code, its digits as text.
    public let code: String
    /// The item whose secret gave the code (as it was read, before an HOTP counter moved on).
    public let attributes: ItemAttributes
    /// A TOTP code's period in seconds; nil for HOTP.
    public let period: Int?
    /// Seconds until a TOTP code's period ends (1 to `period`); nil for HOTP, valid until used.
    public let secondsRemaining: Int?
}

extension ItemStore {
    /// The one-time code of the item matching `query` at `unixTime`. A TOTP
    /// item is only read. An HOTP item gives the code of its stored counter
    /// and stores the counter one higher in the same transaction, so no code
    /// is given twice. Throws `OneTimeCodeError` when the item's secret is not
    /// a one-time code secret, and the store's errors.
    public func oneTimeCode(matching query: Query, atUnixTime unixTime: Int64) throws -> String {
        try oneTimeCodeDetails(matching: query, atUnixTime: unixTime).code
    }

    /// `oneTimeCode(matching:atUnixTime:)` with the item and, for TOTP, the
    /// seconds left in the code's period; throws as it does.
    public func oneTimeCodeDetails(matching query: Query, atUnixTime unixTime: Int64) throws -> OneTimeCode {
        let item = try item(matching: query)
        let secret = try OneTimeCodeSecret(parsing: item.secret)
        guard case .hotp = secret.kind else {
            return OneTimeCode(code: secret.code(atUnixTime: unixTime), attributes: item.attributes,
                               period: secret.period, secondsRemaining: secret.secondsRemaining(atUnixTime: unixTime))
        }
        var code = ""
        _ = try replaceSecret(matching: query, keepingPrevious: false) { item in
            let current = try OneTimeCodeSecret(parsing: item.secret)
            code = current.code(atUnixTime: unixTime)
            return current.advanced()
        }
        return OneTimeCode(code: code, attributes: item.attributes, period: nil, secondsRemaining: nil)
    }

    /// The seconds left in the period of the TOTP code of the item matching
    /// `query` at `unixTime`, without giving a code; nil for an HOTP item,
    /// whose counter does not move. Throws as `oneTimeCode` does.
    public func oneTimeCodeSecondsRemaining(matching query: Query, atUnixTime unixTime: Int64) throws -> Int? {
        try OneTimeCodeSecret(parsing: try item(matching: query).secret).secondsRemaining(atUnixTime: unixTime)
    }
}
