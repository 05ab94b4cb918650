import VaultCore

/// What a re-key for a newcomer (`member add` of a member removed earlier, `--fresh-history`) did,
/// and what it ended, said where the owner sees it.
enum FreshKeysWords {
    /// The lines `member add` and `grant` print after `renewal`, for `newcomer` (quoted already);
    /// `addedBack`: the team log named it removed earlier.
    static func say(_ renewal: KeyRenewal, for newcomer: String, addedBack: Bool, _ terminal: Terminal) {
        let why = addedBack ? "\(newcomer) was removed earlier: " : ""
        switch renewal.renewed {
        case .vault:
            terminal.say(
                "\(why)re-keyed the vault first (key epoch \(renewal.keyEpoch)), so \(newcomer) opens nothing sealed before, in this file or an older copy"
            )
            terminal.say("the re-key ended every scoped credential and session of this vault: grant again what still needs one")
        case .groups(let groups):
            let names = groups.map { quoted($0.name) }.joined(separator: ", ")
            let plural = groups.count == 1 ? "" : "s"
            terminal.say(
                "\(why)gave group\(plural) \(names) new keys first (key epoch \(renewal.keyEpoch)), so \(newcomer) opens nothing of \(groups.count == 1 ? "it" : "them") sealed before, in this file or an older copy"
            )
            terminal.say("the re-key ended every credential granted for group\(plural) \(names): grant again what still needs one")
        }
        if renewal.droppedRevisions + renewal.purgedTrash > 0 {
            terminal.say(
                "fresh history: dropped \(counted(renewal.droppedRevisions, "earlier secret")) and \(counted(renewal.purgedTrash, "trashed item"))"
            )
        }
        terminal.say("teammates' branches from before this re-key come in as conflicts when merged")
    }
}
