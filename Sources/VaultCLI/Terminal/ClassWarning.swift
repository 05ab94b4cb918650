import VaultCore

/// The warning `add` and `update` give for the `always` classes.
enum ClassWarning {
    static func show(for accessibility: Accessibility?, on terminal: Terminal) {
        guard let accessibility, accessibility.opensWithoutUnlock else { return }
        terminal.diagnostics.warning(
            "class \"\(accessibility.rawValue)\" opens with no unlock at all, for any program that can read your files on this machine; Apple deprecated it for that reason"
        )
    }
}
