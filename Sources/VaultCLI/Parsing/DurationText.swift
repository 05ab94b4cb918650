/// Durations as people type them: `90s`, `15m`, `1h30m`, `2d`, or plain seconds.
enum DurationText {
    /// Seconds in `text`, or nil when it is not a duration.
    static func seconds(_ text: String) -> Int? {
        if let plain = Int(text) { return plain > 0 ? plain : nil }
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

    /// Reads a duration option, with a usage error that shows the accepted forms.
    static func option(_ name: String, _ text: String) throws -> Int {
        guard let value = seconds(text) else {
            throw UsageError("invalid --\(name) \(quoted(text))", hint: "give a duration such as 90s, 15m, 1h30m or 2d")
        }
        return value
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
