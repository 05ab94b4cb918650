#if canImport(Glibc)
import Glibc
#endif
import VaultCore
import VaultCrypto

/// How vault reaches a clipboard, in the order it tries them.
enum ClipboardMethod: String, CaseIterable {
    /// Wayland, through wl-clipboard.
    case wlCopy = "wl-copy"
    /// X11, through xclip, else xsel.
    case xclip, xsel
    /// The terminal's OSC 52 escape, which works over SSH and in tmux with
    /// `set-clipboard on`; it cannot read the clipboard back.
    case osc52

    /// The command that takes the clipboard's new content on its stdin.
    var copyCommand: [String] {
        switch self {
        case .wlCopy: ["wl-copy"]
        case .xclip: ["xclip", "-selection", "clipboard", "-in"]
        case .xsel: ["xsel", "--clipboard", "--input"]
        case .osc52: []
        }
    }

    /// The command that prints the clipboard's content exactly.
    var pasteCommand: [String] {
        switch self {
        case .wlCopy: ["wl-paste", "--no-newline"]
        case .xclip: ["xclip", "-selection", "clipboard", "-out"]
        case .xsel: ["xsel", "--clipboard", "--output"]
        case .osc52: []
        }
    }

    /// The command that empties the clipboard (xclip: by copying nothing).
    var clearCommand: [String] {
        switch self {
        case .wlCopy: ["wl-copy", "--clear"]
        case .xclip: copyCommand
        case .xsel: ["xsel", "--clipboard", "--clear"]
        case .osc52: []
        }
    }
}

/// One clipboard vault can write to: the method, and where it is (a Wayland
/// or X display, or the terminal device for OSC 52).
struct Clipboard {
    let method: ClipboardMethod
    let place: String
    let environment: [String: String]

    /// The first clipboard within reach: wl-copy with WAYLAND_DISPLAY set,
    /// xclip or xsel with DISPLAY set, else OSC 52 when `terminalPath` is given.
    static func find(environment: [String: String], terminalPath: String?) -> Clipboard? {
        let wayland = environment[.waylandDisplay] ?? "", display = environment[.display] ?? ""
        let candidates: [(ClipboardMethod, String)] = [(.wlCopy, wayland), (.xclip, display), (.xsel, display)]
        for (method, place) in candidates where !place.isEmpty && isOnPath(method.copyCommand[0], environment) {
            return Clipboard(method: method, place: place, environment: environment)
        }
        return terminalPath.map { Clipboard(method: .osc52, place: $0, environment: environment) }
    }

    private static func isOnPath(_ program: String, _ environment: [String: String]) -> Bool {
        (environment[.path] ?? "/usr/bin:/bin").split(separator: ":").contains { access("\($0)/\(program)", X_OK) == 0 }
    }

    /// Puts `secret` on the clipboard: on the tool's stdin, never in its argv,
    /// or in an OSC 52 escape written to the terminal.
    func copy(_ secret: SecretBytes) throws {
        if method == .osc52 {
            var payload = Base64.encodedBytes(secret.copyBytes())
            defer { for index in payload.indices { payload[index] = 0 } }
            var sequence = SecretBytesBuilder()
            sequence.append("\u{1B}]52;c;")
            payload.withUnsafeBytes { sequence.append($0) }
            sequence.append("\u{07}")
            guard writeToTerminal(sequence.finish()) else {
                throw CommandFailure(.failure, "cannot write to the terminal \(quoted(place))", hint: "run vault get --clip in a terminal")
            }
            return
        }
        let status = run(method.copyCommand, input: secret).status
        guard status == 0 else {
            throw CommandFailure(
                .failure, "\(method.copyCommand[0]) could not copy to the clipboard of \(quoted(place)) (exit \(status))",
                hint: "check that the display \(quoted(place)) is running, or unset \(method == .wlCopy ? "WAYLAND_DISPLAY" : "DISPLAY")")
        }
    }

    /// Whether the clipboard still holds the secret whose HMAC under `key` is
    /// `mac`. OSC 52 cannot tell, and answers true.
    func holds(macKey key: SecretBytes, mac: [UInt8]) -> Bool {
        guard method != .osc52 else { return true }
        let (status, content) = run(method.pasteCommand, input: nil, captureLimit: ItemLimits.maxSecretBytes)
        guard status == 0, let content else { return false }
        return content.withUnsafeBytes { constantTimeEquals(HMAC.sha256(key: key, data: $0), mac) }
    }

    /// Empties the clipboard.
    func clear() {
        if method == .osc52 {
            _ = writeToTerminal(SecretBytes(Array("\u{1B}]52;c;!\u{07}".utf8)))
        } else {
            _ = run(method.clearCommand, input: SecretBytes(count: 0))
        }
    }

    private func writeToTerminal(_ bytes: SecretBytes) -> Bool {
        let fd = open(place, O_WRONLY | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        bytes.withUnsafeBytes { Terminal.writeAll(fd, $0) }
        return true
    }

    /// Runs a clipboard tool with `input` on its stdin (else /dev/null) and,
    /// with `captureLimit`, its stdout captured; its stderr goes to /dev/null,
    /// and so does its stdout otherwise, so a tool that stays in the
    /// background to serve the clipboard holds none of vault's streams.
    private func run(_ argv: [String], input: SecretBytes?, captureLimit: Int? = nil) -> (status: Int32, output: SecretBytes?) {
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { close(null) }
        let inPipe = input == nil ? nil : try? PipeEnds()
        let outPipe = captureLimit == nil ? nil : try? PipeEnds()
        var childEnvironment = environment.map { (name: $0.key, value: Array($0.value.utf8)) }
        let streams = ChildStreams(stdin: inPipe?.readEnd ?? null, stdout: outPipe?.writeEnd ?? null, stderr: null)
        let child = try? ChildProcess.spawn(argv, environment: &childEnvironment, streams: streams)
        for fd in [inPipe?.readEnd, outPipe?.writeEnd].compactMap({ $0 }) { close(fd) }
        if let input, let inPipe {
            let oldPipeAction = signal(SIGPIPE, SIG_IGN)
            input.withUnsafeBytes { Terminal.writeAll(inPipe.writeEnd, $0) }
            close(inPipe.writeEnd)
            signal(SIGPIPE, oldPipeAction)
        }
        var output: SecretBytes?
        if let captureLimit, let outPipe {
            output = SecretStream.read(outPipe.readEnd, limit: captureLimit)
            close(outPipe.readEnd)
        }
        guard let child else { return (127, nil) }
        var status: Int32 = 0
        while waitpid(child.pid, &status, 0) < 0 && errno == EINTR {}
        return ((status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F), output)
    }
}
