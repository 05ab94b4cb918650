#if canImport(Glibc)
import Glibc
#endif

/// A pseudo-terminal for the child of `vault run`, so that it sees a terminal
/// (colours, progress bars, line editing) while vault still reads, and masks,
/// everything it prints. Sized and set up like vault's own terminal.
final class PseudoTerminal {
    /// vault's end: the child's output is read here, keyboard input written here.
    let master: Int32
    /// The child's end, by path: the child opens it as its controlling terminal.
    let slavePath: String
    private var slave: Int32

    init() throws {
        var master: Int32 = -1
        var slave: Int32 = -1
        var settings = termios()
        var size = winsize()
        let haveSettings = tcgetattr(STDIN_FILENO, &settings) == 0 || tcgetattr(STDOUT_FILENO, &settings) == 0
        let haveSize = ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0
        let result = withOptionalPointer(haveSettings ? settings : nil) { settingsPointer in
            withOptionalPointer(haveSize ? size : nil) { sizePointer in
                openpty(&master, &slave, nil, settingsPointer, sizePointer)
            }
        }
        guard result == 0, let name = ttyname(slave) else {
            throw CommandFailure(
                .failure, "cannot open a pseudo-terminal: \(String(cString: strerror(errno)))",
                hint: "check that /dev/pts is mounted, or redirect stdout to run without one")
        }
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        _ = fcntl(slave, F_SETFD, FD_CLOEXEC)
        self.master = master
        self.slave = slave
        self.slavePath = String(cString: name)
    }

    /// Closes vault's copy of the child's end once the child has its own, so
    /// that reading the master ends (EIO) when the child and its children exit.
    func closeSlave() {
        if slave >= 0 { close(slave) }
        slave = -1
    }

    /// Gives the child's terminal the size of vault's (after a SIGWINCH); the
    /// kernel then signals the child's foreground process group.
    func copyWindowSize() {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 {
            _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        }
    }

    deinit {
        closeSlave()
        close(master)
    }
}

/// vault's own terminal in raw mode while keystrokes go to the child's
/// pseudo-terminal, whose line discipline then does echo, ^C and line editing.
struct RawMode {
    private var saved = termios()
    private var active = false

    /// Switches `fd` to raw mode if it is a terminal.
    mutating func enter(_ fd: Int32) {
        guard tcgetattr(fd, &saved) == 0 else { return }
        var raw = saved
        cfmakeraw(&raw)
        active = tcsetattr(fd, TCSANOW, &raw) == 0
    }

    /// Puts the saved settings back.
    mutating func leave(_ fd: Int32) {
        if active { tcsetattr(fd, TCSANOW, &saved) }
        active = false
    }
}

private func withOptionalPointer<T, R>(_ value: T?, _ body: (UnsafePointer<T>?) -> R) -> R {
    guard var value else { return body(nil) }
    return withUnsafePointer(to: &value) { body($0) }
}
