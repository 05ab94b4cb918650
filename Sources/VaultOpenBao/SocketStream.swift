#if canImport(Glibc)
import Glibc
#endif

/// A connected stream socket (TCP or Unix), every step bounded by one deadline: a server that
/// accepts and never answers fails `timedOut` instead of hanging.
final class SocketStream {
    let descriptor: Int32
    private let deadline: Deadline
    /// The address for messages.
    let address: String

    private init(descriptor: Int32, deadline: Deadline, address: String) {
        self.descriptor = descriptor
        self.deadline = deadline
        self.address = address
    }

    deinit { close(descriptor) }

    /// Connects to `host`:`port` (every address the name resolves to, in order) within the deadline.
    static func connect(host: String, port: UInt16, deadline: Deadline, address: String) throws -> SocketStream {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_ADDRCONFIG | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &list)
        guard resolved == 0, let first = list else { throw OpenBaoError.unresolved(host: host, code: resolved) }
        defer { freeaddrinfo(list) }
        var lastErrno: Int32 = ECONNREFUSED
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let candidate = entry {
            entry = candidate.pointee.ai_next
            let fd = socket(
                candidate.pointee.ai_family, candidate.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), candidate.pointee.ai_protocol)
            guard fd >= 0 else { lastErrno = errno; continue }
            let stream = SocketStream(descriptor: fd, deadline: deadline, address: address)
            let outcome = try stream.connect(candidate.pointee.ai_addr, candidate.pointee.ai_addrlen)
            if outcome == 0 { return stream }
            lastErrno = outcome
        }
        throw OpenBaoError.unreachable(address: address, errno: lastErrno)
    }

    /// Connects to the Unix socket at `path` within the deadline.
    static func connect(unixPath path: String, deadline: Deadline, address: String) throws -> SocketStream {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw OpenBaoError.unreachable(address: address, errno: errno) }
        let stream = SocketStream(descriptor: fd, deadline: deadline, address: address)
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { buffer in
            for (index, byte) in path.utf8.enumerated() where index < buffer.count - 1 { buffer[index] = byte }
        }
        let outcome = try withUnsafePointer(to: &socketAddress) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                try stream.connect(address, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard outcome == 0 else { throw OpenBaoError.unreachable(address: address, errno: outcome) }
        return stream
    }

    /// A non-blocking connect waited for with poll; 0, or the errno it failed with.
    private func connect(_ target: UnsafePointer<sockaddr>, _ length: socklen_t) throws -> Int32 {
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        if Glibc.connect(descriptor, target, length) != 0 {
            guard errno == EINPROGRESS else { return errno }
            guard try wait(for: Int16(POLLOUT), step: .connect) else { return ETIMEDOUT }
            var failure: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &size)
            if failure != 0 { return failure }
        }
        _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK)
        // libssl reads and writes the socket itself: its timeouts end where the deadline does.
        var remaining = timeval(
            tv_sec: max(deadline.remainingMilliseconds, 1) / 1000, tv_usec: (max(deadline.remainingMilliseconds, 1) % 1000) * 1000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &remaining, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &remaining, socklen_t(MemoryLayout<timeval>.size))
        return 0
    }

    /// Waits until the socket is ready for `events`; false when it closed with an error, throws when the deadline passes.
    private func wait(for events: Int16, step: OpenBaoError.TimedStep) throws -> Bool {
        while true {
            let milliseconds = deadline.remainingMilliseconds
            guard milliseconds > 0 else { throw OpenBaoError.timedOut(address: address, step: step, seconds: deadline.seconds) }
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, Int32(milliseconds))
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 { throw OpenBaoError.timedOut(address: address, step: step, seconds: deadline.seconds) }
            return ready > 0
        }
    }

    /// Reads what is there (waiting within the deadline): the count, 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            guard try wait(for: Int16(POLLIN), step: .answer) else { throw OpenBaoError.unreachable(address: address, errno: EIO) }
            let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if count >= 0 { return count }
            if errno == EINTR || errno == EAGAIN { continue }
            throw OpenBaoError.unreachable(address: address, errno: errno)
        }
    }

    /// Writes every byte within the deadline.
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let count = send(descriptor, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN { throw OpenBaoError.timedOut(address: address, step: .answer, seconds: deadline.seconds) }
                throw OpenBaoError.unreachable(address: address, errno: errno)
            }
            offset += count
        }
    }
}

/// When a request must be done by: one budget for connecting, the handshake and the answer.
struct Deadline {
    /// The whole budget, for messages.
    let seconds: Int
    private let end: Int64

    init(seconds: Int) {
        self.seconds = seconds
        end = Deadline.nowMilliseconds() + Int64(seconds) * 1000
    }

    var remainingMilliseconds: Int { Int(max(0, end - Deadline.nowMilliseconds())) }

    private static func nowMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
