/// The one writer of vault's own lines on stderr, each `vault: …` and ended by a newline: warnings,
/// notes, hints, notices of what a command did, and the error report. A command says what kind of
/// line it writes; the prefix is written here only (`ErrorsByRoomRuleTests`).
struct Diagnostics {
    let terminal: Terminal

    /// `vault: warning: TEXT`: something the user should know, the command goes on.
    func warning(_ text: String) { line("warning: \(text)") }

    /// `vault: note: TEXT`: a fact about the output, not a problem.
    func note(_ text: String) { line("note: \(text)") }

    /// `vault: hint: TEXT`: what to do next.
    func hint(_ text: String) { line("hint: \(text)") }

    /// `vault: TEXT`, written under --quiet too: a notice the user must see (what `say` leaves out).
    func notice(_ text: String) { line(text) }

    /// The error's message, its details indented under it, and its hint.
    func report(_ report: ErrorReport) {
        line("error: \(report.message)")
        for detail in report.details { line("  \(detail)") }
        if let text = report.hint { hint(text) }
    }

    /// A line whose words choose its kind (`NoticeText`).
    enum Line: Equatable {
        case warning(String)
        case notice(String)
    }

    func write(_ line: Line) {
        switch line {
        case .warning(let text): warning(text)
        case .notice(let text): notice(text)
        }
    }

    private func line(_ text: String) {
        terminal.writeErr("vault: \(text)\n")
    }
}

extension Terminal {
    /// Where this terminal's `vault: …` lines on stderr are written.
    var diagnostics: Diagnostics { Diagnostics(terminal: self) }
}
