#if canImport(Glibc)
import Glibc
#endif
import VaultCore

/// The directory the `--mount` pipe is made in, held by a descriptor vault
/// opened and checked, so that every later step (make the pipe, open it,
/// remove it) names the pipe relative to this very directory, never by a path
/// that a renamed parent could send elsewhere. Only vault's user (and root)
/// may write it: someone else who could would be able to put a link or a file
/// of theirs where the pipe is, between two readers, and be written to, or be
/// read by the command.
final class MountDirectory: @unchecked Sendable {
    /// The directory as named in messages.
    let path: String
    /// Open for `*at` calls, close-on-exec, closed with this object.
    let descriptor: Int32

    /// Opens the parent directory of a `--mount` path with a `/` and refuses
    /// it when someone other than this user or root can write it.
    init(parentOf pipePath: String, path: String) throws {
        // Checked on a local descriptor and stored last: a throw before self is
        // whole runs no deinit, so nothing is closed twice.
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        var info = stat()
        guard descriptor >= 0, fstat(descriptor, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            if descriptor >= 0 { Glibc.close(descriptor) }
            throw CommandFailure(
                .usage, "cannot create the pipe \(quoted(pipePath)) for --mount: \(reason)",
                hint: "give --mount a path that does not exist yet, in a directory that does")
        }
        if let writers = MountDirectory.otherWriters(info, descriptor: descriptor) {
            Glibc.close(descriptor)
            throw CommandFailure(
                .usage,
                "other users can write \(quoted(path)) (\(writers)), so one of them could swap the --mount pipe for a file of their own",
                hint: "give --mount a path in a directory only you can write, or a bare name (--mount app.env), "
                    + "which vault makes in a private directory of its own")
        }
        self.path = path
        self.descriptor = descriptor
    }

    /// Opens a private directory vault just made (mkdtemp), following no
    /// link, and checks it is this user's and mode 0700.
    init(privateDirectory path: String) throws {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw VaultError.io(path: path, operation: .open, errno: errno) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_uid == geteuid(), info.st_mode & 0o7777 == 0o700 else {
            Glibc.close(descriptor)
            throw CommandFailure(
                .failure, "the private directory \(quoted(path)) made for --mount is not this user's with mode 0700",
                hint: "set XDG_RUNTIME_DIR to a directory of yours, mode 0700, or give --mount a path with a /")
        }
        self.path = path
        self.descriptor = descriptor
    }

    deinit { Glibc.close(descriptor) }

    /// Why someone other than this user and root can write a directory (its
    /// owner, its mode), or nil when nobody can. A sticky directory counts as
    /// writable: another user cannot remove the pipe there, but can take its
    /// name in the moment vault makes the next one. A group that can write it
    /// is allowed only when it is this user's private group (named as the
    /// user, no other member) and no ACL names anyone else.
    static func otherWriters(_ info: stat, descriptor: Int32) -> String? {
        let mode = String(info.st_mode & 0o7777, radix: 8)
        let shownMode = "mode " + String(repeating: "0", count: max(0, 4 - mode.count)) + mode
        if info.st_uid != geteuid() && info.st_uid != 0 {
            return "it belongs to uid \(info.st_uid)"
        }
        if info.st_mode & S_IWOTH != 0 {
            return shownMode
        }
        if info.st_mode & S_IWGRP != 0 {
            // With an ACL the group bits are its mask: a named user or group may write.
            if hasACL(descriptor) {
                return shownMode + ", and an ACL"
            }
            if !isPrivateGroup(info.st_gid) {
                return shownMode + ", group " + (groupName(info.st_gid).map { quoted($0) } ?? String(info.st_gid))
            }
        }
        return nil
    }

    /// Whether `gid` is this user's private group: named as the user, the
    /// user's primary group, no other user a member or with it as primary.
    private static func isPrivateGroup(_ gid: gid_t) -> Bool {
        let uid = geteuid()
        guard let user = getpwuid(uid), user.pointee.pw_gid == gid else { return false }
        let userName = String(cString: user.pointee.pw_name)
        guard let group = getgrgid(gid), String(cString: group.pointee.gr_name) == userName else { return false }
        var member = group.pointee.gr_mem
        while let name = member?.pointee {
            if String(cString: name) != userName { return false }
            member = member?.advanced(by: 1)
        }
        setpwent()
        defer { endpwent() }
        while let other = getpwent() {
            if other.pointee.pw_gid == gid && other.pointee.pw_uid != uid { return false }
        }
        return true
    }

    /// Whether the directory has an access ACL beyond its mode bits (true
    /// when that cannot be told). fgetxattr is in libc but not in the Glibc
    /// module, so it is looked up by name.
    private static func hasACL(_ descriptor: Int32) -> Bool {
        typealias GetAttribute = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeMutableRawPointer?, Int) -> Int
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "fgetxattr") else { return true }
        let size = unsafeBitCast(symbol, to: GetAttribute.self)(descriptor, "system.posix_acl_access", nil, 0)
        return size >= 0 || (errno != ENODATA && errno != ENOTSUP)
    }

    private static func groupName(_ gid: gid_t) -> String? {
        getgrgid(gid).map { String(cString: $0.pointee.gr_name) }
    }
}
