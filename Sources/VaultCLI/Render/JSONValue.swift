import FoundationEssentials
import VaultCore

/// A value of `--json` output. Every command renders its result through this
/// one type, so objects keep their keys in the order given and strings are
/// escaped one way.
indirect enum JSONValue {
    case string(String)
    case number(Int)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])
    /// JSON text rendered elsewhere, e.g. an item by `ItemOutput.json`.
    case rendered(String)

    /// Compact JSON text.
    var text: String {
        switch self {
        case .string(let text): ItemOutput.jsonString(text)
        case .number(let number): String(number)
        case .bool(let value): value ? "true" : "false"
        case .null: "null"
        case .array(let values): "[" + values.map(\.text).joined(separator: ",") + "]"
        case .object(let fields): "{" + fields.map { ItemOutput.jsonString($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
        case .rendered(let text): text
        }
    }

    /// A string, or null.
    static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }

    /// Items' attributes (never their secrets), as `list --json` shows them.
    static func items(_ items: [ItemAttributes], now: Date) -> JSONValue {
        .array(items.map { .rendered(ItemOutput.json($0, now: now)) })
    }
}

extension Invocation {
    /// Reports what a command did: when `asJSON` (its --json), `json` as one
    /// line on stdout; otherwise `message` on stderr, unless -q.
    func report(_ message: String, json: @autoclosure () -> JSONValue, asJSON: Bool) {
        if asJSON {
            terminal.writeOut(json().text + "\n")
        } else {
            terminal.say(message)
        }
    }
}
