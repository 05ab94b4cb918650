#if canImport(Glibc)
import Glibc
#endif

/// A pipe whose ends are closed on exec, with room for 256 KiB: the writer
/// wakes the reader for fewer, larger reads.
struct PipeEnds {
    let readEnd: Int32
    let writeEnd: Int32

    init() throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            throw CommandFailure(.failure, "cannot create a pipe: \(String(cString: strerror(errno)))")
        }
        readEnd = ends[0]
        writeEnd = ends[1]
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(readEnd, 1031 /* F_SETPIPE_SZ, a Linux extension Glibc does not export */, Int32(1 << 18))
    }
}
