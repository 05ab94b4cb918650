import FoundationEssentials
import VaultCore

/// `vault first-run`'s options.
struct FirstRunArguments: CommandArguments {
    static let marker = OptionSpec("marker", value: "PATH", help: "the marker file; created 0600 after the wipe", completion: .file)

    static let options: [OptionSpec] = [
        marker,
        OptionSpec(
            ItemSelection.group.name, value: "GROUP", help: "a group to wipe; repeat it for several", repeatable: true, completion: .group),
        WipeArguments.dryRun,
        WipeArguments.yes
    ]

    /// --marker: the file whose absence makes a first run.
    var marker: String?
    /// Every --group given: the groups to wipe (every item without one).
    var groups: [String]
    var dryRun: Bool
    var yes: Bool

    init(_ options: OptionReader) {
        marker = options.value(FirstRunArguments.marker)
        groups = options.values(ItemSelection.group)
        dryRun = options.flag(WipeArguments.dryRun)
        yes = options.flag(SharedOptions.yes)
    }

    func validate() throws {
        guard let marker, !marker.isEmpty else {
            throw UsageError(
                "no --marker given", hint: "name the marker file with --marker PATH, somewhere a reinstall or a fresh runner removes")
        }
    }
}

/// `vault first-run`: wipes once, when the marker file is missing.
enum FirstRunCommand {
    static func run(_ arguments: FirstRunArguments, _ invocation: Invocation) throws {
        let marker = arguments.marker ?? ""
        let groups = try arguments.groups.map(ItemArguments.group(named:))
        let terminal = invocation.terminal
        if FirstRunMarker.exists(at: marker) {
            terminal.say("first run already done (marker \(quoted(marker)) exists); nothing changed")
            return
        }
        let access = VaultAccess(invocation)
        let dryRun = arguments.dryRun
        if try access.location.exists {
            let vault = try access.vault()
            try FirstRun.refuseLikelyTypos(groups, vault)
            if dryRun {
                let plans = try FirstRun.filters(groups).map { try FirstRun.plan($0, vault) }
                plans.forEach { terminal.writeOut(WipeRun.describe($0, now: invocation.now)) }
                let count = plans.reduce(0) { $0 + $1.removedCount }
                terminal.say(
                    "dry run: the first run would remove \(counted(count, "item")) and create \(quoted(marker)); nothing was changed")
                return
            }
            let run = WipeRun(invocation: invocation, access: access, confirmed: arguments.yes)
            guard let outcomes = try FirstRun.claimAndWipe(marker: marker, groups, vault: vault, run: run, confirm: groups.isEmpty) else {
                terminal.say("first run already done (marker \(quoted(marker)) exists); nothing changed")
                return
            }
            outcomes.forEach { terminal.say("first run: \(WipeRun.summary($0))") }
        } else if dryRun {
            terminal.say("dry run: no vault yet; the first run would only create \(quoted(marker))")
            return
        } else {
            guard try FirstRunMarker.claim(at: marker, now: Date()) else {
                terminal.say("first run already done (marker \(quoted(marker)) exists); nothing changed")
                return
            }
            terminal.say("first run: no vault yet, nothing to wipe")
        }
        terminal.say("created the first-run marker \(quoted(marker))")
    }
}

/// The first-run wipe, shared by `vault first-run` and the first-run config keys.
enum FirstRun {
    /// One whole-group filter per group, or one for the whole vault when none is named.
    static func filters(_ groups: [AccessGroup]) -> [WipeFilter] {
        groups.isEmpty ? [WipeFilter()] : groups.map { WipeFilter(query: Query(group: $0)) }
    }

    /// A named group that does not exist while one a letter away does is a typo (`prdo` for
    /// `prod`), refused before anything is wiped or the marker made, as `add` refuses it. A missing
    /// group with no such neighbour is passed over: a tool's group may not exist yet on its first run.
    static func refuseLikelyTypos(_ groups: [AccessGroup], _ vault: Vault) throws {
        guard !groups.isEmpty, !vault.isScoped else { return }
        let (known, unopened) = try vault.groupNames()
        guard unopened == 0 else { return }
        for group in groups
        where !known.contains(group)
            && known.contains(where: { Suggestion.distance($0.name, group.name) == 1 })
        {
            throw VaultError.noSuchGroup(group, known: known.filter { Suggestion.distance($0.name, group.name) == 1 })
        }
    }

    /// What a filter would remove; a group that does not exist removes nothing.
    static func plan(_ filter: WipeFilter, _ vault: Vault) throws -> WipeOutcome {
        do {
            return try vault.wipe(filter, dryRun: true)
        } catch VaultError.item(.noSuchGroup) {
            return .nothing
        }
    }

    /// Wipes the groups (the whole vault when none is named); groups that do not exist are passed over.
    static func wipe(_ groups: [AccessGroup], vault: Vault, run: WipeRun, confirm: Bool) throws -> [WipeOutcome] {
        try filters(groups).compactMap { filter in
            do {
                return try run.perform(filter, on: vault, confirm: confirm)
            } catch VaultError.item(.noSuchGroup) {
                return nil
            }
        }
    }

    /// Wipes, then creates the marker (`FirstRunMarker.once`); returns nil when another
    /// command did this first run already.
    static func claimAndWipe(marker: String, _ groups: [AccessGroup], vault: Vault, run: WipeRun, confirm: Bool) throws -> [WipeOutcome]? {
        try FirstRunMarker.once(at: marker, now: Date()) { try wipe(groups, vault: vault, run: run, confirm: confirm) }
    }

    /// The first-run config keys: when `first-run-marker` is set and the marker
    /// is missing, wipes `first-run-groups` (or the whole vault: the config is the
    /// consent) and creates the marker. Scoped credentials cannot wipe: skipped for them.
    static func applyConfigured(_ config: Config, vault: Vault, run: WipeRun, terminal: Terminal) throws {
        guard let configured = config.value(.firstRunMarker), !configured.isEmpty, !vault.isScoped else { return }
        let marker = try absolutePath(configured, config: config, home: run.invocation.environment[.home])
        guard !FirstRunMarker.exists(at: marker) else { return }
        let names = (config.value(.firstRunGroups) ?? "").split(separator: ",").map { String($0).filter { !$0.isWhitespace } }
        let groups = try names.filter { !$0.isEmpty }.map { name in
            guard let group = AccessGroup(name) else {
                throw CommandFailure.invalidConfig("\(config.path): first-run-groups names an invalid group \(quoted(name))")
            }
            return group
        }
        do {
            let outcomes = try claimAndWipe(marker: marker, groups, vault: vault, run: run, confirm: false) ?? []
            outcomes.forEach { terminal.say("first run (\(config.path)): \(WipeRun.summary($0))") }
        } catch VaultError.unlock(.locked), VaultError.unlock(.sessionEnded) {
            throw lockedFailure(config, marker)
        } catch let failure as CommandFailure where failure.status == .interactionNotAllowed {
            throw lockedFailure(config, marker)
        }
    }

    private static func lockedFailure(_ config: Config, _ marker: String) -> CommandFailure {
        CommandFailure(
            .interactionNotAllowed,
            "the first-run wipe that \(quoted(config.path)) asks for (first-run-marker \(quoted(marker)) is missing) needs the vault unlocked",
            hint: "run it once unlocked, e.g. 'vault first-run --marker \(shellQuoted(marker))' with --key-file or --passphrase-file")
    }

    /// The marker path of the config: absolute, or `~/…`; anything else is a config error,
    /// since a relative marker would make every new working directory a first run.
    private static func absolutePath(_ path: String, config: Config, home: String?) throws -> String {
        if path.hasPrefix("/") { return path }
        if path.hasPrefix("~/"), let home, home.hasPrefix("/") { return home + path.dropFirst() }
        throw CommandFailure.invalidConfig(
            "\(config.path): first-run-marker must be an absolute path or start with ~/, not \(quoted(path))")
    }
}
