import FoundationEssentials

/// Dates as vault prints and reads them: ISO 8601 in UTC, to the second.
enum DateText {
    /// `2026-11-23T14:05:00Z`.
    static func iso(_ date: Date) -> String {
        var text: [UInt8] = []
        appendISO(date, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// `iso(date)`'s bytes appended to `text`: `list` writes a date per item straight into its table.
    static func appendISO(_ date: Date, to output: inout [UInt8]) {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let secondOfDay = seconds - days * 86400
        // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        // Digit by digit into one buffer: `list` prints a date per item, and interpolation cost it a tenth.
        guard (0...9999).contains(year) else {
            // Only a record written by something else holds such a date; print it all the same.
            func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
            output +=
                "\(year)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay % 3600 / 60)):\(two(secondOfDay % 60))Z"
                .utf8
            return
        }
        let start = output.count
        output += "0000-00-00T00:00:00Z".utf8
        func put(_ value: Int64, at offset: Int, digits: Int) {
            var rest = value
            for position in stride(from: start + offset + digits - 1, through: start + offset, by: -1) {
                output[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
        }
        put(year, at: 0, digits: 4)
        put(month, at: 5, digits: 2)
        put(day, at: 8, digits: 2)
        put(secondOfDay / 3600, at: 11, digits: 2)
        put(secondOfDay % 3600 / 60, at: 14, digits: 2)
        put(secondOfDay % 60, at: 17, digits: 2)
    }

    /// `2026-11-23T14:05:00.123Z`: to the millisecond, as records keep dates (a plaintext export).
    static func isoMilliseconds(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let fraction = milliseconds - seconds * 1000
        let digits = String(fraction)
        return String(iso(Date(timeIntervalSince1970: Double(seconds))).dropLast())
            + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }

    /// Reads what `isoMilliseconds` writes, or what `parse` reads; nil for anything else.
    static func parseMilliseconds(_ text: String) -> Date? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return parse(text) }
        let fraction = parts[1]
        guard fraction.count == 4, fraction.hasSuffix("Z"), let milliseconds = Int64(fraction.dropLast()),
            fraction.dropLast().allSatisfy(\.isASCII), let seconds = parse(parts[0] + "Z")
        else { return nil }
        return Date(timeIntervalSince1970: Double(Int64(seconds.timeIntervalSince1970) * 1000 + milliseconds) / 1000)
    }

    /// Reads `YYYY-MM-DDTHH:MM:SS.FRACTIONZ` with any number of fraction digits (Bitwarden writes
    /// 3, .NET 7), to the millisecond, or what `parse` reads; nil for anything else.
    static func parseFraction(_ text: String) -> Date? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return parse(text) }
        let digits = parts[1].dropLast()
        guard parts[1].hasSuffix("Z"), !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let milliseconds = String((digits + "000").prefix(3))
        return parseMilliseconds(parts[0] + "." + milliseconds + "Z")
    }

    /// Reads `YYYY-MM-DD` (midnight UTC) or `YYYY-MM-DDTHH:MM[:SS]Z`; nil for anything else.
    static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
        let ymd = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        guard ymd.count == 3, ymd[0].count == 4, ymd[1].count == 2, ymd[2].count == 2,
            let year = Int64(ymd[0]), let month = Int64(ymd[1]), let day = Int64(ymd[2]),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        var secondOfDay: Int64 = 0
        if parts.count == 2 {
            guard parts[1].hasSuffix("Z") else { return nil }
            let hms = parts[1].dropLast().split(separator: ":", omittingEmptySubsequences: false)
            guard (2...3).contains(hms.count), hms.allSatisfy({ $0.count == 2 }),
                let hour = Int64(hms[0]), let minute = Int64(hms[1]), let second = Int64(hms.count == 3 ? hms[2] : "00"),
                hour < 24, minute < 60, second < 60
            else { return nil }
            secondOfDay = hour * 3600 + minute * 60 + second
        }
        // Days since 1970-01-01 from a civil date (Howard Hinnant's algorithm).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Date(timeIntervalSince1970: Double(days * 86400 + secondOfDay))
    }

    /// The last moment vault reads or writes: 9999-12-31T23:59:59Z.
    static let latest = Date(timeIntervalSince1970: 253_402_300_799)

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
