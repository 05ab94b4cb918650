import FoundationEssentials
import VaultCore

/// A line on stderr that shows how far long work has come ("verify: 12000 of
/// 40000 items"), for verify, export, import, wipe and revoke over many items,
/// and env, run --env-group, redact and scan reading many secrets (and scan's files).
/// Shown only where a person watches: stderr a terminal, prompts allowed
/// (not in CI, not with --no-interaction) and not -q; and only once the work
/// has run for about a second, so quick runs print nothing. The command's
/// usual message follows as the summary.
final class ProgressLine {
    private let terminal: Terminal
    private let label: String
    private let started = Date()
    private let delay: Double
    private let unit: String
    private var lastDrawn: Date?

    /// A progress line counting `unit`s, nil where none may show. Started before the vault is made,
    /// which is told of it then (`VaultAccess.vault(progress:)`); or for work vault's core does not report.
    static func start(_ invocation: Invocation, label: String, unit: String = "item") -> ProgressLine? {
        let terminal = invocation.terminal
        guard terminal.stderrIsTTY, !terminal.quiet, VaultAccess(invocation).reasonPromptsAreOff == nil else { return nil }
        #if DEBUG
        // For tests, which never wait on the clock: show from the first item.
        let delay = Settings(invocation).value(variable: .vaultProgressImmediate) == "1" ? 0 : 1
        #else
        let delay = 1
        #endif
        return ProgressLine(terminal: terminal, label: label, delay: Double(delay), unit: unit)
    }

    private init(terminal: Terminal, label: String, delay: Double, unit: String) {
        self.terminal = terminal
        self.label = label
        self.delay = delay
        self.unit = unit
    }

    /// Redraws the line at most ten times a second; clears it at the last
    /// item, so what the command prints next (a question, the summary) starts clean.
    func update(done: Int, total: Int) {
        if done >= total { return finish() }
        let now = Date()
        guard now.timeIntervalSince(started) >= delay else { return }
        if let lastDrawn, now.timeIntervalSince(lastDrawn) < 0.1 { return }
        lastDrawn = now
        terminal.writeErr("\r\u{1B}[Kvault: \(label): \(done) of \(counted(total, unit))")
    }

    /// Clears the line, if it is drawn: at the last item, or when the work fails part way.
    func finish() {
        guard lastDrawn != nil else { return }
        lastDrawn = nil
        terminal.writeErr("\r\u{1B}[K")
    }
}
