import FoundationEssentials
import VaultCore

/// `vault first-run`: wipes once, when the marker file is missing.
enum FirstRunCommand {
    static func run(_ invocation: Invocation) throws {
        let arguments = invocation.arguments
        guard let marker = arguments.value("marker"), !marker.isEmpty else {
            throw UsageError("no --marker given", hint: "name the marker file with --marker PATH, somewhere a reinstall or a fresh runner removes")
        }
        let groups = try arguments.values("group").map(ItemArguments.group(named:))
        let terminal = invocation.terminal
        if FirstRunMarker.exists(at: marker) {
            terminal.writeErr("vault: first run already done (marker \(quoted(marker)) exists); nothing changed\n")
            return
        }
        let access = VaultAccess(invocation)
        let dryRun = arguments.flag("dry-run")
        if access.location.exists {
            let vault = try access.vault(applyingFirstRun: false)
            if dryRun {
                let plans = try FirstRun.filters(groups).map { try FirstRun.plan($0, vault) }
                plans.forEach { terminal.writeOut(WipeRun.describe($0)) }
                let count = plans.reduce(0) { $0 + $1.removedCount }
                terminal.writeErr("vault: dry run: the first run would remove \(count) item\(count == 1 ? "" : "s") and create \(quoted(marker)); nothing was changed\n")
                return
            }
            let outcomes = try FirstRun.wipe(groups, vault: vault, run: WipeRun(invocation: invocation, access: access), confirm: groups.isEmpty)
            outcomes.forEach { terminal.writeErr("vault: first run: \(WipeRun.summary($0))\n") }
        } else if dryRun {
            terminal.writeErr("vault: dry run: no vault yet; the first run would only create \(quoted(marker))\n")
            return
        } else {
            terminal.writeErr("vault: first run: no vault yet, nothing to wipe\n")
        }
        try FirstRunMarker.create(at: marker, now: Date())
        terminal.writeErr("vault: created the first-run marker \(quoted(marker))\n")
    }
}

/// The first-run wipe, shared by `vault first-run` and the first-run config keys.
enum FirstRun {
    /// One whole-group filter per group, or one for the whole vault when none is named.
    static func filters(_ groups: [AccessGroup]) -> [WipeFilter] {
        groups.isEmpty ? [WipeFilter()] : groups.map { WipeFilter(query: Query(group: $0)) }
    }

    /// What a filter would remove; a group that does not exist removes nothing.
    static func plan(_ filter: WipeFilter, _ vault: Vault) throws -> WipeOutcome {
        do {
            return try vault.wipe(filter, dryRun: true)
        } catch VaultError.noSuchGroup {
            return .nothing
        }
    }

    /// Wipes the groups (the whole vault when none is named); groups that do not exist are passed over.
    static func wipe(_ groups: [AccessGroup], vault: Vault, run: WipeRun, confirm: Bool) throws -> [WipeOutcome] {
        try filters(groups).compactMap { filter in
            do {
                return try run.perform(filter, on: vault, confirm: confirm)
            } catch VaultError.noSuchGroup {
                return nil
            }
        }
    }

    /// The first-run config keys: when `first-run-marker` is set and the marker
    /// is missing, wipes `first-run-groups` (or the whole vault: the config is the
    /// consent) and creates the marker. Scoped credentials cannot wipe: skipped for them.
    static func applyConfigured(_ config: Config, vault: Vault, run: WipeRun, terminal: Terminal) throws {
        guard let marker = config.value("first-run-marker"), !marker.isEmpty, !FirstRunMarker.exists(at: marker),
              !vault.isScoped else { return }
        let names = (config.value("first-run-groups") ?? "").split(separator: ",").map { String($0).filter { !$0.isWhitespace } }
        let groups = try names.filter { !$0.isEmpty }.map { name in
            guard let group = AccessGroup(name) else {
                throw VaultError.invalidValue(field: "config", detail: "\(config.path): first-run-groups names an invalid group \(quoted(name))")
            }
            return group
        }
        let outcomes = try wipe(groups, vault: vault, run: run, confirm: false)
        outcomes.forEach { terminal.writeErr("vault: first run (\(config.path)): \(WipeRun.summary($0))\n") }
        try FirstRunMarker.create(at: marker, now: Date())
    }
}
