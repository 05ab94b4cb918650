import VaultCore
import VaultCrypto

/// A helper's failure, already written the way its protocol wants; vault
/// exits with `status` and prints nothing more.
struct ReportedFailure: Error {
    var status: Status
}

/// How a credential helper reports a failure: one line on stderr, with
/// vault's usual message and hint joined, so git and docker show the user
/// one line that says what to do. The words come from `ErrorReport`, which
/// never includes a secret.
enum HelperReport {
    /// The one stderr line for `report`.
    static func line(_ report: ErrorReport) -> String {
        "vault: error: \(report.message)" + (report.hint.map { "; hint: \($0)" } ?? "") + "\n"
    }

    /// Writes git's kind of failure (stderr only: an empty stdout lets git
    /// move on to its next helper or its own prompt) and returns what to throw.
    static func git(_ error: Error, on terminal: Terminal) -> ReportedFailure {
        let report = ErrorReport(error)
        terminal.writeErr(line(report))
        return ReportedFailure(status: report.status)
    }

    /// Writes the failure of a helper whose tool shows its stderr to the user (kubectl, the AWS
    /// SDKs, Terraform): one line, naming the items an ambiguous match found; stdout stays empty.
    static func tool(_ error: Error, on terminal: Terminal) -> ReportedFailure {
        var report = ErrorReport(error)
        if case VaultError.item(.ambiguous) = error {
            report.message += ": " + report.details.joined(separator: "; ")
            report.hint = "keep one item of that service in the group: remove the others with 'vault delete -s SERVICE -a ACCOUNT'"
        }
        terminal.writeErr(line(report))
        return ReportedFailure(status: report.status)
    }

    /// The text docker's clients look for to tell "no login stored" from a failure.
    static let dockerNotFound = "credentials not found in native keychain"

    /// Writes docker's kind of failure: the message on stdout (where docker's
    /// clients read a helper's error), exit 1 with `dockerNotFound` when no
    /// login is stored, and otherwise the one-line report on stderr too.
    static func docker(_ error: Error, on terminal: Terminal) -> ReportedFailure {
        if case VaultError.item(.itemNotFound) = error {
            terminal.writeOut(dockerNotFound + "\n")
            return ReportedFailure(status: .failure)
        }
        let report = ErrorReport(error)
        terminal.writeOut(report.message + "\n")
        terminal.writeErr(line(report))
        return ReportedFailure(status: report.status)
    }
}

extension Array where Element == ItemAttributes {
    /// Newest first, then by service and account: the order helpers pick a
    /// login in when several match (git's store helper keeps the newest first too).
    func newestFirst() -> [ItemAttributes] {
        sorted { ($0.modified, $1.service, $1.account) > ($1.modified, $0.service, $0.account) }
    }
}

extension ItemStore {
    /// The attributes of the items matching `query`; none while its group does not exist yet
    /// (a helper's store creates it, as `add` does).
    func helperItems(matching query: Query) throws -> [ItemAttributes] {
        do {
            return try attributes(matching: query)
        } catch VaultError.item(.noSuchGroup) {
            return []
        }
    }

    /// Whether the stored item `existing` already holds `new`: same class, details and secret.
    func holds(_ new: NewItem, as existing: ItemAttributes) throws -> Bool {
        guard existing.accessibility == new.accessibility, existing.details == new.details else { return false }
        let stored = try item(matching: Query(service: existing.service, account: existing.account, group: existing.group))
        return stored.secret.constantTimeEquals(new.secret)
    }
}
