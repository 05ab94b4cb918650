#if canImport(Glibc)
import Glibc
#endif

/// The user's editor, run on one file as git runs it: `$VISUAL`, else
/// `$EDITOR`, else `vi`, through `sh -c` so an editor with arguments works,
/// with vim's swap, undo, backup and viminfo files turned off through
/// `VIMINIT` (the user's ~/.vimrc is still read, then the settings forced again).
struct EditorProcess {
    let environment: [String: String]

    /// The vim settings that keep a copy of the buffer out of any other file.
    static let vimSettings = "set nobackup nowritebackup noswapfile noundofile viminfo="

    /// The editor's command line, as the user set it.
    var command: String {
        for variable in [EnvironmentVariable.visual, .editor] {
            if let value = environment[variable], !value.isEmpty { return value }
        }
        return "vi"
    }

    /// How the editor ended: its exit status, or the signal that killed it,
    /// and any TERM or HUP vault received meanwhile (passed on to the editor).
    struct Outcome {
        var status: Int32
        var vaultSignal: Int32?
    }

    /// Runs the editor on `path` and waits for it. SIGINT and SIGQUIT are
    /// the editor's (it shares the terminal); TERM and HUP sent to vault are
    /// passed on, so the caller can wipe the file once the editor is gone.
    func edit(_ path: String) throws -> Outcome {
        var childEnvironment = environment.map { (name: $0.key, value: Array($0.value.utf8)) }
        childEnvironment.removeAll { $0.name == "VIMINIT" }
        let vimInit = "\(Self.vimSettings) | silent! source ~/.vimrc | \(Self.vimSettings)"
        childEnvironment.append((name: "VIMINIT", value: Array(vimInit.utf8)))
        let signals = try SignalRelay()
        defer { signals.restore() }
        // A handler, not SIG_IGN: exec resets it, so the editor keeps its own ^\ (quit).
        var quiet = sigaction(), saved = sigaction()
        quiet.__sigaction_handler.sa_handler = { _ in }
        sigaction(SIGQUIT, &quiet, &saved)
        defer { sigaction(SIGQUIT, &saved, nil) }
        let child = try ChildProcess.spawn(
            ["sh", "-c", command + " \"$@\"", command, path],
            environment: &childEnvironment, streams: ChildStreams())
        var vaultSignal: Int32?
        while true {
            if let status = child.poll() { return Outcome(status: status, vaultSignal: vaultSignal) }
            var ready = pollfd(fd: signals.readEnd, events: Int16(POLLIN), revents: 0)
            _ = Glibc.poll(&ready, 1, 1000)
            for caught in signals.drain() where caught.number == SIGTERM || caught.number == SIGHUP {
                vaultSignal = caught.number
                child.send(caught.number)
            }
        }
    }
}
