#if canImport(Glibc)
import Glibc
#endif
import VaultCore
import VaultCrypto

/// `vault get --clip`: copies the secret to the clipboard and starts a
/// detached clearer (`vault __clip-clear`) that empties it after the timeout
/// if it still holds the secret (always, for OSC 52). The clearer is given
/// only a random key and the secret's HMAC under it, on a pipe.
struct ClipboardCopy {
    let clipboard: Clipboard
    let seconds: Int

    /// The clipboard `--clip` asks for (`options`, validated), checked before the vault is opened;
    /// nil without `--clip`.
    static func requested(_ options: ClipboardOptions, _ invocation: Invocation) throws -> ClipboardCopy? {
        guard options.clip else { return nil }
        let seconds = try options.timeout?.get() ?? ClipboardOptions.defaultTimeout
        if Settings(invocation).isOn(variable: .ci) {
            throw CommandFailure(
                .failure, "--clip is off when CI is set: a CI job has no clipboard to clear",
                hint: "give the secret to the command that needs it with 'vault run'")
        }
        guard let clipboard = Clipboard.find(environment: invocation.environment, terminalPath: terminalPath()) else {
            throw CommandFailure(
                .failure,
                "no clipboard within reach: no WAYLAND_DISPLAY with wl-copy, no DISPLAY with xclip or xsel, and no terminal for OSC 52",
                hint: "install wl-clipboard or xclip in a desktop session, or print the secret with 'vault get'")
        }
        return ClipboardCopy(clipboard: clipboard, seconds: seconds)
    }

    /// The terminal device (e.g. /dev/pts/3) on stderr, stdout or stdin,
    /// which the detached clearer can open again (it has no /dev/tty); nil
    /// when none of them is a terminal.
    private static func terminalPath() -> String? {
        for fd in [STDERR_FILENO, STDOUT_FILENO, STDIN_FILENO] where isatty(fd) == 1 {
            if let name = ttyname(fd) { return String(cString: name) }
        }
        return nil
    }

    /// Copies `secret` and starts the clearer; says where it went on stderr.
    func copy(_ secret: SecretBytes, of attributes: ItemAttributes, what: String = "secret", invocation: Invocation) throws {
        try clipboard.copy(secret)
        let key = SecretBytes(SecureRandom.bytes(32))
        let mac = secret.withUnsafeBytes { HMAC.sha256(key: key, data: $0) }
        try startClearer(key: key, mac: mac)
        let clearing =
            clipboard.method == .osc52
            ? "it is cleared in \(DurationText.describe(seconds)), whatever the clipboard holds then"
            : "it is cleared in \(DurationText.describe(seconds)) if it still holds the \(what)"
        invocation.terminal.diagnostics.notice(
            "copied the \(what) of service \(quoted(attributes.service)), account \(quoted(attributes.account)) "
                + "to the clipboard (\(clipboard.method.rawValue)); \(clearing)")
    }

    private func startClearer(key: SecretBytes, mac: [UInt8]) throws {
        var executable = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &executable, executable.count - 1)
        guard length > 0 else { throw CommandFailure(.failure, "cannot find the vault executable to clear the clipboard later") }
        let path = String(decoding: executable[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let handoff = try PipeEnds()
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { close(null) }
        var environment = clipboard.environment.map { (name: $0.key, value: Array($0.value.utf8)) }
        let streams = ChildStreams(stdin: handoff.readEnd, newSession: true, stdout: null, stderr: null)
        let spawned = Result {
            try ChildProcess.spawn(
                [path, ClipboardClearCommand.name, clipboard.method.rawValue, String(seconds), clipboard.place],
                environment: &environment, streams: streams)
        }
        close(handoff.readEnd)
        key.withUnsafeBytes { Terminal.writeAll(handoff.writeEnd, $0) }
        mac.withUnsafeBytes { Terminal.writeAll(handoff.writeEnd, $0) }
        close(handoff.writeEnd)
        _ = try spawned.get()
    }
}

/// `vault __clip-clear`'s arguments: METHOD, SECONDS and PLACE, as `get --clip` gives them.
struct ClipboardClearArguments: CommandArguments {
    var words: [String]

    init(_ options: OptionReader) {
        words = options.positionals
    }
}

/// `vault __clip-clear METHOD SECONDS PLACE`, started by `get --clip` in a
/// session of its own: reads the HMAC key and MAC of the secret on stdin,
/// waits SECONDS (suspend counts), then empties the clipboard if it still
/// holds the secret (OSC 52: always).
enum ClipboardClearCommand {
    static let name = "__clip-clear"

    static func run(_ arguments: ClipboardClearArguments, _ invocation: Invocation) throws {
        let words = arguments.words
        guard words.count == 3, let method = ClipboardMethod(rawValue: words[0]), let seconds = Int(words[1]) else { return }
        let handoff = SecretStream.read(STDIN_FILENO, limit: 64)
        guard handoff.count == 64 else { return }
        let (key, mac) = handoff.withUnsafeBytes {
            (SecretBytes(UnsafeRawBufferPointer(rebasing: $0[0..<32])), Array($0[32..<64]))
        }
        sleepWhileSuspendCounts(seconds)
        let clipboard = Clipboard(method: method, place: words[2], environment: invocation.environment)
        if clipboard.holds(macKey: key, mac: mac) { clipboard.clear() }
    }

    private static func sleepWhileSuspendCounts(_ seconds: Int) {
        var deadline = timespec()
        clock_gettime(CLOCK_BOOTTIME, &deadline)
        deadline.tv_sec += seconds
        while clock_nanosleep(CLOCK_BOOTTIME, TIMER_ABSTIME, &deadline, nil) == EINTR {}
    }
}
