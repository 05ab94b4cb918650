/// An option's value as its command's arguments converted it in `init`: the value, or the usage
/// error its text gives. The error is thrown when the value is asked for (`get()`, called by
/// `validate()` or `run`), so that when two things are wrong the same one is named first; `run`
/// never parses the text itself (`CLIEdgeRuleTests`).
enum Converted<Value: Sendable>: Sendable {
    case value(Value)
    case invalid(UsageError)

    /// `text` converted by `convert`, or `error` when it gives nil.
    init(_ text: String, _ convert: (String) -> Value?, else error: @autoclosure () -> UsageError) {
        if let value = convert(text) { self = .value(value) } else { self = .invalid(error()) }
    }

    /// `text` converted by `convert`, or the usage error it throws.
    init(_ text: String, _ convert: (String) throws -> Value) {
        do {
            self = .value(try convert(text))
        } catch let error as UsageError {
            self = .invalid(error)
        } catch {
            preconditionFailure("a conversion throws only usage errors")
        }
    }

    /// The value, or the usage error its text gave (exit 2).
    func get() throws -> Value {
        switch self {
        case .value(let value): return value
        case .invalid(let error): throw error
        }
    }
}
