// The names each group's owner lets items set (`vault group allow-env`), folded from the clear
// parts of the team log's kind 8 entries: no key is needed, so a scoped credential folds them too;
// they are the owner's only where the trust statement over the head checks (docs/RUN.md).
extension TeamLog.Entry {
    /// A kind 8 entry's change, read from its clear part. Throws `MalformedInput` when it does not parse.
    func clearChangeDecoded() throws -> TeamChange {
        var r = ByteReader(clearChange)
        let change = try TeamChange.decode(.envNamesAllowed, from: &r)
        guard r.isAtEnd else { throw MalformedInput(.violates(.malformedTeamLogPayload)) }
        return change
    }
}

extension TeamLog {
    /// The allowed names of each group at the head. Each entry's are its first parent's, changed by a
    /// kind 8 entry for its group; at a join, a group's are merged three ways against the latest entry
    /// both parents hold: what both sides agree on; else the side that changed them since, when only
    /// one did; else (both changed them, differently) none, so jobs name their variables again until
    /// the owner sets them. Entries are in chain order (every parent earlier), which `decode` checks.
    func allowedEnvNames() -> [GroupID: AllowedEnvNames] {
        guard entries.contains(where: { $0.kind == .envNamesAllowed }) else { return [:] }
        let position = Dictionary(uniqueKeysWithValues: hashes.enumerated().map { ($1, $0) })
        // An entry and every entry it descends from, by position.
        func ancestry(of start: Int) -> Set<Int> {
            var seen: Set<Int> = [start], stack = [start]
            while let index = stack.popLast() {
                for parent in entries[index].parents.compactMap({ position[$0] }) where seen.insert(parent).inserted {
                    stack.append(parent)
                }
            }
            return seen
        }
        var settings: [[GroupID: AllowedEnvNames]] = []
        for entry in entries {
            let parents = entry.parents.compactMap { position[$0] }
            var current = parents.first.map { settings[$0] } ?? [:]
            if entry.kind == .envNamesAllowed, case .envNamesAllowed(let id, let allowed)? = try? entry.clearChangeDecoded() {
                current[id] = allowed
            } else if entry.kind == .joined, parents.count == 2 {
                let common = ancestry(of: parents[0]).intersection(ancestry(of: parents[1]))
                // The latest common entry, as a join picks it: the highest key epoch, then the lower hash.
                let base =
                    common.max { a, b in
                        entries[a].keyEpoch != entries[b].keyEpoch
                            ? entries[a].keyEpoch < entries[b].keyEpoch
                            : hashes[b].lexicographicallyPrecedes(hashes[a])
                    }.map { settings[$0] } ?? [:]
                current = TeamLog.merged(settings[parents[0]], settings[parents[1]], base: base)
            }
            settings.append(current)
        }
        return settings.last ?? [:]
    }

    /// Two sides' allowed names merged three ways against `base`, group by group.
    static func merged(
        _ one: [GroupID: AllowedEnvNames], _ other: [GroupID: AllowedEnvNames],
        base: [GroupID: AllowedEnvNames]
    ) -> [GroupID: AllowedEnvNames] {
        var result: [GroupID: AllowedEnvNames] = [:]
        for id in Set(one.keys).union(other.keys) {
            let a = one[id], b = other[id], before = base[id]
            if a == b { result[id] = a } else if a == before { result[id] = b } else if b == before { result[id] = a }
        }
        return result
    }
}

extension OpenVault {
    /// The names the owner allowed, for each group these keys open that has some: nil when the
    /// team log allows some but `pinned` (the trust fingerprint) is nil, so nothing vouches that the
    /// owner wrote them. Throws `untrustedVault` when the header is not signed under `pinned`.
    func ownerAllowedEnvNames(pinned: String?, path: String) throws -> [AccessGroup: AllowedEnvNames]? {
        let allowed = file.teamLog?.allowedEnvNames() ?? [:]
        if allowed.isEmpty { return [:] }
        guard let pinned else { return nil }
        guard headerIsSigned(byFingerprint: pinned) else { throw VaultError.untrustedVault(path: path, pinned: pinned) }
        var byGroup: [AccessGroup: AllowedEnvNames] = [:]
        for (id, names) in allowed {
            guard let group = keys.groups[id]?.group, scope?.contains(id) ?? true else { continue }
            byGroup[group] = names
        }
        return byGroup
    }
}
