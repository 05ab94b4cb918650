import Foundation
import Testing

/// `vault get --clip` with the real tools: xclip (and xsel when xclip is not
/// on PATH) under Xvfb, and wl-copy under a headless Wayland compositor (sway,
/// which wlroots runs without a screen and with a seat, as wl-copy needs; run
/// as an unprivileged user, since sway refuses root). The secret gets there,
/// and the detached clearer empties the clipboard only while it still holds
/// the secret. Waits are bounded polls. OSC 52: Scenarios/clipboard.txt.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/Xvfb")))
struct ClipboardTests {
    /// An Xvfb server on a display of its own, stopped by `stop()`.
    struct VirtualDisplay {
        let name: String
        let pid: pid_t

        init(in sandbox: Sandbox) throws {
            let number = Int.random(in: 400..<900)
            name = ":\(number)"
            pid = try Sandbox.launch(
                "/usr/bin/Xvfb", [name, "-nolisten", "tcp"], environment: sandbox.environment,
                directory: sandbox.home, stdin: "/dev/null", stdout: "/dev/null", stderr: "/dev/null")
            let socket = "/tmp/.X11-unix/X\(number)"
            guard ClipboardTests.poll({ FileManager.default.fileExists(atPath: socket) }) else {
                throw SandboxError.setupFailed("Xvfb \(name) did not start")
            }
        }

        func stop() {
            kill(pid, SIGTERM)
            _ = Sandbox.waitForExit(pid)
        }
    }

    /// Polls every 0.1 s for up to 20 s; whether `condition` came true.
    static func poll(_ condition: () throws -> Bool) rethrows -> Bool {
        for _ in 0..<200 {
            if try condition() { return true }
            usleep(100_000)
        }
        return false
    }

    /// Whether the clearer for `display` has finished.
    static func clearerDone(_ sandbox: Sandbox, _ method: String, _ display: String) throws -> Bool {
        try sandbox.run("/usr/bin/pgrep", ["-f", "__clip-clear \(method) 1 \(display)$"]).status != 0
    }

    func clipboard(_ sandbox: Sandbox, _ display: VirtualDisplay) throws -> String {
        try sandbox.run("/usr/bin/xclip", ["-selection", "clipboard", "-out"], environment: ["DISPLAY": display.name]).stdoutText
    }

    func copyAndClear(method: String, path: String? = nil) throws {
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        try sandbox.vault(["add", "-s", "bank", "-a", "me"], stdin: Array("top-secret".utf8))
        let display = try VirtualDisplay(in: sandbox)
        defer { display.stop() }
        var environment = ["DISPLAY": display.name]
        if let path { environment["PATH"] = path }

        let copied = try sandbox.vault(["get", "-s", "bank", "-a", "me", "--clip", "--clip-timeout", "1s"], environment: environment)
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(copied.stdout.isEmpty)
        #expect(copied.stderr.contains("to the clipboard (\(method))"))
        #expect(try clipboard(sandbox, display) == "top-secret")
        #expect(try ClipboardTests.poll { try clipboard(sandbox, display).isEmpty }, "the clipboard was never cleared")
        #expect(try ClipboardTests.poll { try ClipboardTests.clearerDone(sandbox, method, display.name) })

        // Copied over by someone else before the timeout: the clearer leaves it.
        #expect(
            try sandbox.vault(["get", "-s", "bank", "-a", "me", "--clip", "--clip-timeout", "1s"], environment: environment).status == 0)
        _ = try sandbox.run(
            "/usr/bin/xclip", ["-selection", "clipboard", "-in"], stdin: Array("mine".utf8), environment: ["DISPLAY": display.name])
        #expect(try ClipboardTests.poll { try ClipboardTests.clearerDone(sandbox, method, display.name) })
        #expect(try clipboard(sandbox, display) == "mine")
    }

    @Test func xclipCopiesAndTheClearerClearsOnlyItsOwnSecret() throws {
        try copyAndClear(method: "xclip")
    }

    /// xsel serves when xclip is not on PATH.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/xsel")))
    func xselServesWithoutXclip() throws {
        let bin = FileManager.default.temporaryDirectory.path + "/vault-xsel-only-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: bin) }
        try FileManager.default.createSymbolicLink(atPath: bin + "/xsel", withDestinationPath: "/usr/bin/xsel")
        try copyAndClear(method: "xsel", path: bin)
    }

    /// A headless sway with a Wayland socket of its own, stopped by `stop()`. As root it runs as
    /// the unprivileged user `vault-wltest` (made here once), which owns its runtime directory.
    struct HeadlessWayland {
        let runtimeDirectory: String
        let socket: String
        let pid: pid_t
        static let user = "vault-wltest"

        init(in sandbox: Sandbox) throws {
            runtimeDirectory = FileManager.default.temporaryDirectory.path + "/vault-wayland-" + UUID().uuidString
            try FileManager.default.createDirectory(
                atPath: runtimeDirectory, withIntermediateDirectories: false,
                attributes: [.posixPermissions: 0o700])
            var command = ["/usr/bin/sway", "-c", "/dev/null"]
            if getuid() == 0 {
                if try sandbox.run("/usr/bin/id", [HeadlessWayland.user]).status != 0 {
                    let made = try sandbox.run(
                        "/usr/sbin/useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", HeadlessWayland.user])
                    guard made.status == 0 else { throw SandboxError.setupFailed("useradd \(HeadlessWayland.user): \(made.stderr)") }
                }
                _ = try sandbox.run("/bin/chown", [HeadlessWayland.user, runtimeDirectory])
                command = ["/usr/sbin/runuser", "-u", HeadlessWayland.user, "--"] + command
            }
            let environment = sandbox.environment.merging([
                "XDG_RUNTIME_DIR": runtimeDirectory, "WLR_BACKENDS": "headless",
                "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman"
            ]) { $1 }
            pid = try Sandbox.launch(
                command[0], Array(command.dropFirst()), environment: environment, directory: runtimeDirectory,
                stdin: "/dev/null", stdout: "/dev/null", stderr: "/dev/null")
            let directory = runtimeDirectory
            var found: String?
            _ = ClipboardTests.poll {
                found = (try? FileManager.default.contentsOfDirectory(atPath: directory))?.first {
                    $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock")
                }
                return found != nil
            }
            guard let found else { throw SandboxError.setupFailed("sway did not make a Wayland socket in \(directory)") }
            socket = directory + "/" + found
        }

        /// WAYLAND_DISPLAY as an absolute path: clients find the socket whatever their XDG_RUNTIME_DIR.
        var environment: [String: String] { ["WAYLAND_DISPLAY": socket] }

        func stop() {
            kill(pid, SIGTERM)
            _ = Sandbox.waitForExit(pid)
            try? FileManager.default.removeItem(atPath: runtimeDirectory)
        }
    }

    @Test func wlCopyCopiesAndTheClearerClearsOnlyItsOwnSecret() throws {
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        try sandbox.vault(["add", "-s", "bank", "-a", "me"], stdin: Array("top-secret".utf8))
        let wayland = try HeadlessWayland(in: sandbox)
        defer { wayland.stop() }
        func clipboard() throws -> String {
            try sandbox.run("/usr/bin/wl-paste", ["--no-newline"], environment: wayland.environment).stdoutText
        }
        let copied = try sandbox.vault(
            ["get", "-s", "bank", "-a", "me", "--clip", "--clip-timeout", "1s"], environment: wayland.environment)
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(copied.stdout.isEmpty)
        #expect(copied.stderr.contains("to the clipboard (wl-copy)"))
        #expect(try clipboard() == "top-secret")
        #expect(try ClipboardTests.poll { try clipboard().isEmpty }, "the clipboard was never cleared")
        #expect(try ClipboardTests.poll { try ClipboardTests.clearerDone(sandbox, "wl-copy", wayland.socket) })

        // Copied over by someone else before the timeout: the clearer leaves it.
        #expect(
            try sandbox.vault(["get", "-s", "bank", "-a", "me", "--clip", "--clip-timeout", "1s"], environment: wayland.environment).status
                == 0)
        _ = try sandbox.run("/usr/bin/wl-copy", [], stdin: Array("mine".utf8), environment: wayland.environment)
        #expect(try ClipboardTests.poll { try ClipboardTests.clearerDone(sandbox, "wl-copy", wayland.socket) })
        #expect(try clipboard() == "mine")
    }
}
