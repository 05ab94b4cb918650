import VaultCore

extension ErrorReport {
    /// The words for a value `set` could not encode, or an item's secret `value` could not decode
    /// (VaultCore's Codable items; the command line itself stores none).
    static func describe(_ error: CodableItemError) -> ErrorReport {
        let key = error.key
        let verb = error.operation == .encoding ? "encode" : "decode"
        return ErrorReport(
            status: error.status,
            message:
                "cannot \(verb) item (group \"\(key.group)\", service \"\(key.service)\", account \"\(key.account)\") as \(error.type): \(words(error.problem, verb: verb))",
            hint: nil)
    }

    /// What is wrong in the JSON, e.g. `key "port" is missing at $`; `verb` what failed (encode, decode).
    private static func words(_ problem: CodableItemError.Problem, verb: String) -> String {
        switch problem {
        case .notJSON: return "it is not JSON"
        case .keyMissing(let key, let path): return "key \"\(key)\" is missing at \(path)"
        case .nullWhereExpected(let type, let path): return "null at \(path) where \(type) is expected"
        case .typeMismatch(let type, let path): return "the value at \(path) is not \(type)"
        case .doesNotDecode(let path): return "the value at \(path) does not decode"
        case .noJSONForm(let path): return "the value at \(path) has no JSON form (e.g. a NaN or infinite number)"
        case .unknown: return "it does not \(verb)"
        }
    }
}
