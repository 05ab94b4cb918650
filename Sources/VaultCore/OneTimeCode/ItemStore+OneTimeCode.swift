/// A one-time code as `vault otp` gives it: the code, the item it came
/// from, and how long a TOTP code stays valid.
package struct OneTimeCode: Sendable {
    /// The code, its digits as text.
    package let code: String
    /// The item whose secret or one-time code field gave the code (as it was read, before an HOTP counter moved on).
    package let attributes: ItemAttributes
    /// A TOTP code's period in seconds; nil for HOTP.
    package let period: Int?
    /// Seconds until a TOTP code's period ends (1 to `period`); nil for HOTP, valid until used.
    package let secondsRemaining: Int?
}

extension ItemStore {
    /// The one-time code of the item matching `query` at `unixTime`. A TOTP
    /// item is only read. An HOTP item gives the code of its stored counter
    /// and stores the counter one higher in the same transaction, so no code
    /// is given twice. An item with a one-time code field (`SealedField.oneTimeCode`) gives
    /// that field's code, its secret being a password. Throws `OneTimeCodeError` when the item's secret is not
    /// a one-time code secret, and the store's errors.
    package func oneTimeCode(matching query: Query, atUnixTime unixTime: Int64) throws -> String {
        try oneTimeCodeDetails(matching: query, atUnixTime: unixTime).code
    }

    /// `oneTimeCode(matching:atUnixTime:)` with the item and, for TOTP, the
    /// seconds left in the code's period; throws as it does.
    package func oneTimeCodeDetails(matching query: Query, atUnixTime unixTime: Int64) throws -> OneTimeCode {
        let item = try item(matching: query)
        let secret = try OneTimeCodeSecret(parsing: item.oneTimeCodeSecret)
        guard case .hotp = secret.kind else {
            return OneTimeCode(
                code: secret.code(atUnixTime: unixTime), attributes: item.attributes,
                period: secret.period, secondsRemaining: secret.secondsRemaining(atUnixTime: unixTime))
        }
        var code = ""
        let advance: (Item) throws -> SecretBytes? = { item in
            let current = try OneTimeCodeSecret(parsing: item.oneTimeCodeSecret)
            code = current.code(atUnixTime: unixTime)
            return current.advanced()
        }
        if item.fields[.oneTimeCode] != nil {
            _ = try replaceField(.oneTimeCode, matching: query, by: advance)
        } else {
            _ = try replaceSecret(matching: query, keepingPrevious: false, by: advance)
        }
        return OneTimeCode(code: code, attributes: item.attributes, period: nil, secondsRemaining: nil)
    }

    /// The seconds left in the period of the TOTP code of the item matching
    /// `query` at `unixTime`, without giving a code; nil for an HOTP item,
    /// whose counter does not move. Throws as `oneTimeCode` does.
    package func oneTimeCodeSecondsRemaining(matching query: Query, atUnixTime unixTime: Int64) throws -> Int? {
        try OneTimeCodeSecret(parsing: try item(matching: query).oneTimeCodeSecret).secondsRemaining(atUnixTime: unixTime)
    }
}

extension Item {
    /// What gives the item's one-time codes: its one-time code field when it has one (a password
    /// with its second factor beside it), else its secret.
    var oneTimeCodeSecret: SecretBytes { fields[.oneTimeCode] ?? secret }
}
