import VaultCore
import VaultOpenBao
import VaultSecretService

/// The words for every error: written once, here, where they are printed.
struct ErrorReport {
    var status: Status
    var message: String
    /// Extra lines after the message (e.g. the candidates of an ambiguous query).
    var details: [String] = []
    var hint: String?

    init(_ error: Error) {
        switch error {
        case let error as UsageError:
            self.init(status: .usage, message: error.message, hint: error.hint)
        case let error as CommandFailure:
            self.init(status: error.status, message: error.message, details: error.details, hint: error.hint)
        case let error as VaultError:
            self = ErrorReport.describe(error)
        case let error as SecretServiceError:
            self = ErrorReport.describe(error)
        case let error as CodableItemError:
            self = ErrorReport.describe(error)
        case let error as OpenBaoError:
            self = ErrorReport.describe(error)
        default:
            self.init(status: .failure, message: "unexpected failure: \(error)", hint: nil)
        }
    }

    init(status: Status, message: String, details: [String] = [], hint: String?) {
        self.status = status
        self.message = message
        self.details = details
        self.hint = hint
    }

    /// `error` in words, by its room; `input`, when one of a merge's files was refused, names the
    /// file the refusal is of instead of its path.
    static func describe(_ error: VaultError, of input: MergeInput? = nil) -> ErrorReport {
        switch error {
        case .item(let error): return describe(error)
        case .unlock(let error): return describe(error)
        case .keys(let error): return describe(error)
        case .snapshot(let error): return describe(error, of: input)
        case .transaction(let error): return describe(error)
        case .storage(let error): return describe(error)
        case .team(let error): return describe(error)
        case .merge(let error): return describe(error)
        case .identity(let error): return describe(error)
        case .bundle(let error): return describe(error)
        }
    }

    /// A path the user gave, quoted, unless it looks like a secret put where a
    /// path belongs (a key's or credential's text, a long token, a passphrase
    /// of several words): then only its length.
    static func shownPath(_ path: String) -> String {
        let tagged = ["vault-key-v1:", "vault-credential-v1:"].contains(where: path.contains)
        let secretLike = !path.contains("/") && (path.count >= 40 || path.contains(where: \.isWhitespace))
        guard tagged || secretLike || path.contains(where: \.isNewline) else { return quoted(path) }
        return "given (\(path.count) characters, not shown)"
    }
}
