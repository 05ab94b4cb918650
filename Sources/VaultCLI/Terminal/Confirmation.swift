import VaultCore

/// Asking before a destructive change: `--yes` answers for scripts; on a
/// terminal vault asks; with neither it refuses (exit 2) and changes nothing.
/// An answer other than y is the person saying no: exit 128, as `delete` says it.
enum Confirmation {
    /// Asks `question` unless `confirmed` (the command's --yes).
    static func require(_ invocation: Invocation, confirmed: Bool, access: VaultAccess, question: String) throws {
        if confirmed { return }
        guard access.reasonPromptsAreOff == nil, let answer = try invocation.terminal.readLine(prompt: question + " [y/N] ") else {
            throw UsageError("this destroys items and needs confirmation", hint: "add --yes to confirm without a terminal")
        }
        guard ["y", "yes"].contains(answer.lowercased()) else {
            throw CommandFailure(.userCanceled, "not confirmed; nothing was changed")
        }
    }
}
