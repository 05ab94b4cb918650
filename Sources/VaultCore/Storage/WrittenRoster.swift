import FoundationEssentials

/// The members as the owner last wrote them into a vault on this machine, kept in the state
/// directory by vault id: what a conversion from format v2 compares the file's roster with. In v2 a
/// full member holds the header MAC key and can rewrite a roster part, so a roster the owner merely
/// read proves nothing; one it wrote here does (docs/TEAMS.md, "The team log").
enum WrittenRoster {
    static func path(vaultID: [UInt8], host: HostContext) -> String {
        host.stateDirectory + "/rosters/" + hex(vaultID)
    }

    /// One member as the record keeps it: name, recipient and scope (group ids, read-only).
    static func line(_ member: Member) -> String {
        switch member.scope {
        case .full: return "\(member.name)\t\(member.recipient)\tfull"
        case .groups(let ids, let readOnly):
            return "\(member.name)\t\(member.recipient)\t\(readOnly ? "read" : "write") \(ids.map { "\($0)" }.joined(separator: ","))"
        }
    }

    /// Records `members` as what the owner wrote into `vaultID` here (written only when it changed).
    static func record(_ members: [Member], vaultID: [UInt8], host: HostContext) throws {
        let text = members.map(line).sorted().joined(separator: "\n") + "\n"
        let path = path(vaultID: vaultID, host: host)
        let directory = host.stateDirectory + "/rosters"
        try FileSystem.makeDirectory(host.stateDirectory)
        try FileSystem.makeDirectory(directory)
        let lock = try LockFile(path: path + ".lock")
        defer { withExtendedLifetime(lock) {} }
        // Every writer of the record holds this lock: a temp file of one that failed or was killed can go.
        FileSystem.removeAbandonedTemporaries(of: path, directory: directory)
        if let held = try? FileSystem.read(path, requirePrivate: false, missing: .noSuchVault(path: path)), held == Array(text.utf8) {
            return
        }
        try FileSystem.writeAtomically(Array(text.utf8), to: path, directory: directory)
    }

    /// The names among `members` that the roster last written here does not hold as they are: each
    /// of them when none was written here.
    static func unvouched(_ members: [Member], vaultID: [UInt8], host: HostContext) -> [String] {
        let path = path(vaultID: vaultID, host: host)
        let held =
            (try? FileSystem.read(path, requirePrivate: false, missing: .noSuchVault(path: path)))
            .map { Set(String(decoding: $0, as: UTF8.self).split(separator: "\n").map(String.init)) } ?? []
        return members.filter { !held.contains(line($0)) }.map(\.name)
    }
}
