#if canImport(Glibc)
import Glibc
#endif

/// An operation git stopped in the middle of, which a change to a vault file in its work tree
/// would be lost to (its `--abort`, or its next step merging from the index over the file).
public enum UnfinishedGitOperation: Sendable, Equatable {
    /// `git merge`, or `git pull` without `--rebase`.
    case merge
    /// `git rebase` (either backend), or `git pull --rebase`.
    case rebase
    /// `git am`.
    case applyingPatches
    /// `git cherry-pick`, or a series of them.
    case cherryPick
    /// `git revert`, or a series of them.
    case revert
}

/// Whether a directory lies inside a git work tree: it or a parent holds `.git`.
package enum GitWorkTree {
    static func contains(_ directory: String) -> Bool {
        topLevel(of: directory) != nil
    }

    /// The work tree holding `directory`: the nearest directory up from it with a `.git`.
    static func topLevel(of directory: String) -> String? {
        guard var current = FileSystem.realPath(directory) else { return nil }
        while true {
            if FileSystem.exists(current + "/.git") { return current }
            guard current != "/", !current.isEmpty else { return nil }
            current = FileSystem.directoryOf(current)
        }
    }

    /// The operation git holds unfinished in the work tree holding `directory`, read from the files
    /// git keeps, without running git; nil when there is none. A `.git` file (a linked work tree, a
    /// submodule) names the git directory on its `gitdir:` line. `REBASE_HEAD` alone is no sign of
    /// one: git 2.39 leaves it behind after `git rebase --continue`.
    package static func unfinishedOperation(_ directory: String) -> UnfinishedGitOperation? {
        guard let gitDirectory = gitDirectory(of: directory) else { return nil }
        if FileSystem.exists(gitDirectory + "/rebase-merge") { return .rebase }
        if FileSystem.exists(gitDirectory + "/rebase-apply") {
            return FileSystem.exists(gitDirectory + "/rebase-apply/applying") ? .applyingPatches : .rebase
        }
        if FileSystem.exists(gitDirectory + "/MERGE_HEAD") { return .merge }
        if FileSystem.exists(gitDirectory + "/CHERRY_PICK_HEAD") { return .cherryPick }
        if FileSystem.exists(gitDirectory + "/REVERT_HEAD") { return .revert }
        // A series of picks or reverts between two of its steps: its to-do list names which.
        if FileSystem.exists(gitDirectory + "/sequencer") {
            return firstLine(of: gitDirectory + "/sequencer/todo")?.hasPrefix("revert") == true ? .revert : .cherryPick
        }
        return nil
    }

    /// Removes what merge drivers killed mid-write left in `directory` (the top of the work tree,
    /// where git keeps its `.merge_file_XXXXXX` copies, the driver's OURS): the temp files of copies
    /// git has since removed.
    package static func removeAbandonedMergeDriverTemporaries(in directory: String) {
        FileSystem.removeTemporariesOfVanishedFiles(named: ".merge_file_", in: directory)
    }

    /// The commit HEAD names in the work tree holding `directory`, read from git's files (HEAD, the
    /// branch's ref file or `packed-refs`) without running git; nil outside a work tree or before
    /// the first commit. For telling cheaply whether HEAD moved since it was last looked at.
    package static func headCommit(of directory: String) -> String? {
        guard let gitDirectory = gitDirectory(of: directory), let head = firstLine(of: gitDirectory + "/HEAD") else { return nil }
        guard head.hasPrefix("ref: ") else { return head }
        let ref = String(head.dropFirst(5))
        // A linked work tree keeps its HEAD in its own git directory and its branches in the common one.
        let common = firstLine(of: gitDirectory + "/commondir").map { $0.hasPrefix("/") ? $0 : gitDirectory + "/" + $0 } ?? gitDirectory
        for base in [gitDirectory, common] {
            if let commit = firstLine(of: base + "/" + ref) { return commit }
        }
        guard let packed = try? FileSystem.read(common + "/packed-refs", requirePrivate: false, missing: .noSuchVault(path: common)) else {
            return nil
        }
        for line in String(decoding: packed, as: UTF8.self).split(separator: "\n") where line.hasSuffix(" " + ref) {
            return String(line.prefix { $0 != " " })
        }
        return nil
    }

    /// The git directory of the work tree holding `directory`: its `.git`, or the one a `.git` file names.
    private static func gitDirectory(of directory: String) -> String? {
        guard let top = topLevel(of: directory) else { return nil }
        let dotGit = top + "/.git"
        if FileSystem.isDirectory(dotGit) { return dotGit }
        guard let line = firstLine(of: dotGit), line.hasPrefix("gitdir: ") else { return nil }
        let named = String(line.dropFirst(8))
        return named.hasPrefix("/") ? named : top + "/" + named
    }

    private static func firstLine(of path: String) -> String? {
        guard let text = try? FileSystem.read(path, requirePrivate: false, missing: .noSuchVault(path: path)),
            let line = String(decoding: text, as: UTF8.self).split(separator: "\n").first
        else { return nil }
        var trimmed = Substring(line)
        while let last = trimmed.last, last.isWhitespace { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }
}
