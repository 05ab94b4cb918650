import VaultCore

// The words for what a template, an env file, a secret reference or a one-time code secret
// gets wrong: VaultCore names the fault, the command line says it.

extension SecretReferenceError {
    /// What is wrong, for an error message.
    var problem: String {
        switch self {
        case .missingScheme: return "it does not start with vault://"
        case .segmentCount(let count):
            return "it has \(count) part\(count == 1 ? "" : "s") after vault://; it needs SERVICE/ACCOUNT or GROUP/SERVICE/ACCOUNT"
        case .emptyService: return "the service is empty"
        case .invalidGroup(let name): return "\"\(name)\" is not a valid group name (\(AccessGroup.rule))"
        case .badEscape(let text): return "\"\(text)\" is not a percent-escape (% and two hex digits)"
        case .reservedCharacter(let character): return "\"\(character)\" is reserved; write it percent-encoded"
        case .unencodedSpace: return "it holds a space or control character; write it percent-encoded, e.g. %20"
        case .notUTF8: return "a percent-escape decodes to bytes that are not UTF-8"
        case .unknownQuery(let query):
            return
                "\"?\(query)\" is not a query vault knows; ?otp is the one-time code (?version=N for openbao://), and a '?' in a name is written %3F"
        case .missingField: return "it names no field; write openbao://[MOUNT/]PATH#FIELD"
        case .badPathSegment: return "a segment of its path is empty, '.' or '..'"
        }
    }

    /// How to write it right, for a hint.
    static let syntaxHint =
        "write vault://[GROUP/]SERVICE/ACCOUNT, or …/ACCOUNT?otp for a one-time code, or openbao://[MOUNT/]PATH#FIELD[?version=N], percent-encoding '/', '%', '?', '#' and spaces in names (e.g. %2F)"
}

extension OneTimeCodeError {
    /// What is wrong, for an error message.
    var problem: String {
        switch self {
        case .notOneTimeCode: "it is neither an otpauth:// URI nor a Base32 seed"
        case .missingSecret: "the otpauth:// URI has no secret parameter"
        case .secretNotBase32: "the secret parameter of the otpauth:// URI is not Base32"
        case .keyTooShort: "the key is shorter than 80 bits (16 Base32 characters)"
        case .algorithm: "the algorithm parameter must be SHA1, SHA256 or SHA512"
        case .digits: "the digits parameter must be 6, 7 or 8"
        case .period: "the period parameter must be a whole number of seconds from 1 to 86400"
        case .counter: "an otpauth://hotp/ URI needs a counter parameter, a whole number"
        case .type: "the otpauth:// URI is neither totp nor hotp"
        }
    }
}

extension TemplateError {
    /// What is wrong, for an error message.
    var problem: String {
        switch reason {
        case .unclosedReference: return "\"{{ vault://\" is never closed with \"}}\""
        case .badReference(let text, let error): return "\(text): \(error.problem)"
        }
    }
}

extension DotenvError {
    /// What is wrong, for an error message.
    var problem: String {
        switch reason {
        case .expectedAssignment: return "expected NAME=VALUE"
        case .invalidName(let name): return "\"\(name)\" is not a valid variable name"
        case .expectedEquals(let name): return "expected \"=\" after \(name)"
        case .unclosedQuote(let quote): return "the quote \(quote) opened here is never closed"
        case .textAfterQuote: return "unexpected text after the closing quote"
        }
    }
}
