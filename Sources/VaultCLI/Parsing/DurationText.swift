import FoundationEssentials

/// Durations as people type them: `90s`, `15m`, `1h30m`, `2d`, `1w`. A unit
/// is required: a bare `180` could mean seconds or days, and a wipe that
/// guesses seconds removes everything older than three minutes. Every
/// duration option reads its value through `option` or `PointInTime`.
enum DurationText {
    /// Seconds in `text`, or nil when it is not a duration with units.
    static func seconds(_ text: String) -> Int? {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604_800]
        var total = 0
        var digits = ""
        for character in text {
            if character.isASCII, character.isNumber {
                digits.append(character)
            } else if let unit = units[character], let value = Int(digits) {
                let (product, overflow) = value.multipliedReportingOverflow(by: unit)
                let (sum, sumOverflow) = total.addingReportingOverflow(product)
                guard !overflow, !sumOverflow else { return nil }
                total = sum
                digits = ""
            } else {
                return nil
            }
        }
        return digits.isEmpty && total > 0 ? total : nil
    }

    /// Reads the duration option `--name`, with a usage error that shows the accepted forms.
    static func option(_ name: String, _ text: String) throws -> Int {
        guard let value = seconds(text) else {
            throw UsageError("invalid --\(name) \(quoted(text))", hint: unitHint(text) ?? "give a duration such as 90s, 15m, 1h30m or 2d")
        }
        return value
    }

    /// Which way a point-in-time option looks from now.
    enum Direction {
        /// `--expires 30d`: 30 days from now; a date must not have passed.
        case future
        /// `--older-than 30d`: 30 days ago; a date must have passed.
        case past
    }

    /// The hint for a bare number: which unit did you mean?
    fileprivate static func unitHint(_ text: String) -> String? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return "a duration needs a unit: write \(text)s, \(text)m, \(text)h or \(text)d"
    }

    /// A duration for people: "15m", "1h30m".
    static func describe(_ seconds: Int) -> String {
        var rest = seconds
        var parts: [String] = []
        for (unit, size) in [("d", 86400), ("h", 3600), ("m", 60), ("s", 1)] where rest >= size {
            parts.append("\(rest / size)\(unit)")
            rest %= size
        }
        return parts.isEmpty ? "0s" : parts.joined()
    }
}

/// The value of an option that takes a duration or a date (`2027-01-31`, `2027-01-31T12:00Z`), read
/// in its command's arguments; `date(_:now:)` gives the moment it names, up to 9999-12-31.
struct PointInTime: Sendable {
    /// The option's long name and its value as given, for messages.
    let name: String
    let text: String
    private let seconds: Int?
    private let date: Date?

    /// Reads `text`, given to `--name`: a usage error when it is neither a duration nor a date.
    init(_ name: String, _ text: String) throws {
        self.name = name
        self.text = text
        seconds = DurationText.seconds(text)
        date = seconds == nil ? DateText.parse(text) : nil
        guard seconds != nil || date != nil else { throw invalid }
    }

    /// The moment named: a duration counted from `now` the way `direction` looks; a usage error
    /// when it lies beyond 9999-12-31, or on the wrong side of `now`.
    func date(_ direction: DurationText.Direction, now: Date) throws -> Date {
        let date = seconds.map { now.addingTimeInterval(Double(direction == .future ? $0 : -$0)) } ?? self.date!
        guard date <= DateText.latest else { throw invalid }
        if direction == .future, date <= now {
            throw UsageError("--\(name) \(quoted(text)) is in the past", hint: "give a later date, or a duration such as 30d")
        }
        if direction == .past, date > now {
            throw UsageError("--\(name) \(quoted(text)) is in the future", hint: "give a date that has passed, or a duration such as 30d")
        }
        return date
    }

    /// --expires given as `text`: a duration or a date, read; nil when not given or `never`.
    static func expiry(_ text: String?) -> Converted<PointInTime>? {
        guard let text, text != "never" else { return nil }
        return Converted(text) { try PointInTime(ItemDetailOptions.expires.long, $0) }
    }

    private var invalid: UsageError {
        let forms = "a duration such as 12h or 30d, or a date up to 9999-12-31 such as 2027-01-31 or 2027-01-31T12:00Z"
        return UsageError("invalid --\(name) \(quoted(text))", hint: DurationText.unitHint(text) ?? "give " + forms)
    }
}
