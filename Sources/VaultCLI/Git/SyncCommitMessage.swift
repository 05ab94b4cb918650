import VaultCore

/// The message of the commit `vault sync` makes of the vault file: what changed since HEAD, by
/// count and group id ("vault: 2 changed, 1 added in group #3803823293"), read from the ids the
/// file shows to anyone, so it needs no key and never asks. Names are sealed in the file on
/// purpose: only the config key `sync-commit-names` puts group and item names in the message,
/// from what the keys that open at once open (docs/TEAMS.md, "Reading a team vault's history").
enum SyncCommitMessage {
    /// The subject of a commit of the vault file as it is now on top of `parent` (HEAD unless given).
    static func subject(vault: Vault, relative: String, repository: GitRepository, invocation: Invocation, parent: String = "HEAD")
        -> String
    {
        let fallback = "vault: update \(relative)"
        guard let current = try? PlainFile.read(vault.location.path),
            let new = try? vault.summary(ofVersion: current, label: relative)
        else { return fallback }
        let old = repository.blob("\(parent):\(relative)").flatMap { try? vault.summary(ofVersion: $0, label: relative) }
        let names = Settings.isSet((try? invocation.config())?.value(.syncCommitNames))
        guard let subject = FileSummaryText.commitSubject(new.changes(since: old), names: names) else { return fallback }
        return "vault: " + subject
    }
}
