import FoundationEssentials
import VaultCrypto

/// Exposure (docs/TEAMS.md, "Offboarding"): what each member or group could open, through every
/// version of the file.
extension ExposureHistory {
    /// Reads `current` (the file opened with the owner's keys, or a full member's) and every
    /// version of `history` (oldest first, iterated once: a version is let go before the next is
    /// read), each version once and each sealed record once. A version these keys do not open is
    /// counted, not read. `currentCommits`: the commits whose file is the current file byte for
    /// byte. A passphrase's KDF (`source`) runs once per master key, not once per version.
    /// `path` names the versions.
    static func reading(
        _ history: some Sequence<VaultFileVersion>, currentCommits: [String], current: Snapshot,
        source: KeySource, path: String
    ) throws -> ExposureHistory {
        guard let fullKeys = current.keys.fullKeys else { throw VaultError.ownerOnly(.readExposure) }
        var opener = VersionOpener(known: [fullKeys], deviceKey: current.keys.deviceKey)
        var digester = ExposureHistory.Digester()
        var result = ExposureHistory()
        for (position, version) in history.enumerated() {
            guard let snapshot = opener.open(version.bytes, label: "\(path) (version \(position + 1))", source: source) else {
                result.versionsNotOpened += 1
                continue
            }
            result.add(snapshot, commits: version.commits, digester: &digester)
        }
        result.add(current, commits: currentCommits, digester: &digester)
        result.takeLiveValues()
        return result
    }

    /// The members some version names who are not members of the current file: those that lost access.
    var membersWhoLostAccess: [String] {
        memberNames.subtracting(currentMembers).sorted()
    }

    /// The live values exposed to a member that lost access, or to a credential of `grants` revoked
    /// or expired at `now`, and not accepted: what `exposure check` lists.
    func findings(accepted: [ExposureAcceptance], grants: [GrantEntry], now: Date) -> [ExposureFinding] {
        let principals =
            membersWhoLostAccess.map(ExposurePrincipal.member)
            + grants.filter { $0.state(at: now) != .live }.map(ExposurePrincipal.credential)
        return principals.flatMap { principal in
            values(exposedTo: principal, accepted: accepted).values
                .filter { $0.state == .live && $0.accepted == nil }
                .map { ExposureFinding(principal: principal, value: $0) }
        }
    }

    /// Opens old versions with the keys the current file opened with, else with the keys at hand.
    private struct VersionOpener {
        var known: [KeyRing.FullKeys]
        let deviceKey: DeviceKey?
        /// Keyslot sets a passphrase already failed to open (its KDF is not run again for them).
        var failedKeyslots: Set<[UInt8]> = []

        mutating func open(_ bytes: [UInt8], label: String, source: KeySource) -> Snapshot? {
            let fileBytes = FileBytes(bytes)
            for keys in known {
                if let opened = try? Snapshot.open(fileBytes, fullKeys: keys, deviceKey: deviceKey, path: label) { return opened }
            }
            guard case .credential(let secret) = source,
                let parsed = try? Snapshot.parse(fileBytes, path: label)
            else { return nil }
            let slots = parsed.file.keyslots.flatMap { $0.salt + $0.wrappedMasterKey }
            guard !failedKeyslots.contains(slots) else { return nil }
            guard let opened = try? Snapshot.unlock(fileBytes, secret: secret, deviceKey: deviceKey, path: label),
                let keys = opened.keys.fullKeys
            else {
                failedKeyslots.insert(slots)
                return nil
            }
            known.append(keys)
            return opened
        }
    }
}
