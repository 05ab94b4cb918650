import Foundation
import Testing

/// The secret-service backend end to end: the built binary against a real
/// GNOME Keyring daemon in a private D-Bus session (see KeyringDaemon). The
/// tests run in parallel, as vault processes of one user do: vault's writes to
/// a collection are serialized by its lock (docs/SECRET-SERVICE.md).
@Suite struct SecretServiceTests {
    /// Eight vaults at once add the same item, then eight at once change one
    /// attribute each of one item: exactly one add wins, and every change lands.
    /// Without the collection lock, several adds see no item and each creates
    /// one, and updates write back attributes read before another's change
    /// (without it, most rounds fail; three rounds make a miss unlikely).
    @Test(KeyringDaemon.trait, arguments: 1...3) func parallelWritersToOneCollectionLoseNothing(round: Int) throws {
        guard KeyringDaemon.isAvailable() else { return }
        let sandbox = try KeyringDaemon.sandbox()
        let service = KeyringDaemon.uniqueService("parallel-\(round)")
        let adds = try (0..<8).map { try RunningVault(sandbox, ["add", "-s", service, "-a", "shared"], stdin: "writer-\($0)") }.map {
            $0.finish()
        }
        #expect(adds.filter { $0.status == 0 }.count == 1, "exits: \(adds.map(\.status))")
        #expect(adds.filter { $0.status == 45 }.count == 7, "exits: \(adds.map(\.status)); \(adds.map(\.stderr).joined())")
        let listed = try sandbox.vault(["list", "--service", service, "--json"])
        #expect(listed.stdoutText.components(separatedBy: "\"account\":\"shared\"").count == 2, "one item: \(listed.stdoutText)")

        let changes: [[String]] = [
            ["-l", "the label"], ["-j", "the comment"], ["-D", "the kind"], ["-G", "the generic"],
            ["--env-name", "THE_NAME"], ["--expires", "2099-01-01"], ["--class", "after-first-unlock"]
        ]
        var updates = try changes.map { try RunningVault(sandbox, ["update", "-s", service, "-a", "shared", "--keep-secret"] + $0) }
        updates.append(try RunningVault(sandbox, ["update", "-s", service, "-a", "shared"], stdin: "the secret"))
        for result in updates.map({ $0.finish() }) { #expect(result.status == 0, "\(result.stderr)") }
        let item = try sandbox.vault(["get", "-s", service, "-a", "shared", "--json", "--show-secret"]).stdoutText
        for expected in [
            "\"label\":\"the label\"", "\"comment\":\"the comment\"", "\"kind\":\"the kind\"", "\"generic\":\"the generic\"",
            "\"env_name\":\"THE_NAME\"", "2099-01-01", "after-first-unlock", "\"secret\":\"the secret\""
        ] {
            #expect(item.contains(expected), "lost \(expected): \(item)")
        }
        #expect(try sandbox.vault(["delete", "-s", service, "--all-matching"]).status == 0)
    }

    @Test(KeyringDaemon.trait) func everyItemCommandWorksThroughTheKeyring() throws {
        guard KeyringDaemon.isAvailable() else { return }
        let sandbox = try KeyringDaemon.sandbox()
        let service = KeyringDaemon.uniqueService("items")
        let binary: [UInt8] = [0, 1, 2, 0xFF, 0x0A, 0x41]

        var result = try sandbox.vault(
            ["add", "-s", service, "-a", "ci-bot", "-l", "CI token", "--comment", "rotate monthly"],
            stdin: Array("first".utf8))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try sandbox.vault(["add", "-s", service, "-a", "ci-bot"], stdin: Array("again".utf8)).status == 45)
        #expect(try sandbox.vault(["get", "-s", service, "-a", "ci-bot"]).stdoutText == "first")

        result = try sandbox.vault(["add", "-U", "-s", service, "-a", "ci-bot", "-l", "CI token"], stdin: Array("second".utf8))
        #expect(result.status == 0 && result.stderr.contains("replaced"), "\(result.stderr)")
        result = try sandbox.vault(["get", "-s", service, "-a", "ci-bot"])
        #expect(result.stdoutText == "second", "exit \(result.status): \(result.stderr)")

        #expect(try sandbox.vault(["add", "-s", service, "-a", "binary"], stdin: binary).status == 0)
        result = try sandbox.vault(["get", "-s", service, "-a", "binary"])
        #expect(result.stdout == binary, "exit \(result.status): \(result.stderr)")

        result = try sandbox.vault(["get", "-s", service, "-a", "ci-bot", "--json"])
        #expect(result.stdoutText.contains("\"label\":\"CI token\""))
        #expect(!result.stdoutText.contains("second"))

        result = try sandbox.vault(["list", "--service", service])
        #expect(result.status == 0)
        #expect(result.stdoutText.contains("ci-bot") && result.stdoutText.contains("binary"))
        #expect(try sandbox.vault(["get", "-s", service]).status == 2, "two items match: ambiguous")

        #expect(try sandbox.vault(["update", "-s", service, "-a", "ci-bot"], stdin: Array("third".utf8)).status == 0)
        #expect(
            try sandbox.vault([
                "update", "-s", service, "-a", "ci-bot", "--keep-secret", "-l", "renamed",
                "--class", "after-first-unlock"
            ]).status == 0)
        result = try sandbox.vault(["get", "-s", service, "-a", "ci-bot", "--json", "--show-secret"])
        #expect(result.stdoutText.contains("\"label\":\"renamed\"") && result.stdoutText.contains("after-first-unlock"))
        #expect(try sandbox.vault(["get", "-s", service, "-a", "ci-bot"]).stdoutText == "third")

        #expect(try sandbox.vault(["update", "-s", service, "-a", "nobody"], stdin: Array("x".utf8)).status == 44)
        #expect(try sandbox.vault(["delete", "-s", service, "-a", "ci-bot"]).status == 0)
        #expect(try sandbox.vault(["get", "-s", service, "-a", "ci-bot"]).status == 44)
        #expect(try sandbox.vault(["delete", "-s", service, "--all-matching"]).status == 0)
        #expect(try sandbox.vault(["delete", "-s", service, "-a", "binary"]).status == 44)
    }

    @Test(KeyringDaemon.trait) func expiredItemsAreNotReturned() throws {
        guard KeyringDaemon.isAvailable() else { return }
        let sandbox = try KeyringDaemon.sandbox()
        let service = KeyringDaemon.uniqueService("expiry")
        // vault refuses a past --expires date, so the expired item is stored as another tool would.
        let store = try sandbox.run(
            "/usr/bin/secret-tool", ["store", "--label=old", "service", service, "account", "old", "expires", "978307200"],
            stdin: Array("x".utf8))
        #expect(store.status == 0, "secret-tool store: \(store.stderr)")
        let result = try sandbox.vault(["get", "-s", service, "-a", "old"])
        #expect(result.status == 44 && result.stderr.contains("expired on 2001-01-01T00:00:00Z"), "\(result.stderr)")
        #expect(try sandbox.vault(["update", "-s", service, "-a", "old", "--keep-secret", "--expires", "never"]).status == 0)
        #expect(try sandbox.vault(["get", "-s", service, "-a", "old"]).stdoutText == "x")
        #expect(try sandbox.vault(["delete", "-s", service, "-a", "old"]).status == 0)
    }

    /// The keyring keeps no earlier secrets: history, get --revision, update --undo and --keep say so (2).
    @Test(KeyringDaemon.trait) func historyNeedsTheFileBackend() throws {
        guard KeyringDaemon.isAvailable() else { return }
        let sandbox = try KeyringDaemon.sandbox()
        let service = KeyringDaemon.uniqueService("history")
        #expect(try sandbox.vault(["add", "-s", service, "-a", "a"], stdin: Array("x".utf8)).status == 0)
        for arguments in [
            ["history", "-s", service, "-a", "a"], ["get", "-s", service, "-a", "a", "--revision", "1"],
            ["update", "-s", service, "-a", "a", "--undo"], ["update", "-s", service, "-a", "a", "--keep", "2", "-w", "y"]
        ] {
            let result = try sandbox.vault(arguments)
            #expect(
                result.status == 2 && result.stderr.contains("the desktop keyring keeps no earlier secrets"),
                "\(arguments): \(result.stderr)")
        }
        #expect(try sandbox.vault(["get", "-s", service, "-a", "a"]).stdoutText == "x")
        #expect(try sandbox.vault(["delete", "-s", service, "-a", "a"]).status == 0)
    }

    /// Eight `vault otp` at once on one HOTP item in the keyring: eight codes,
    /// all different, and the counter stored eight higher (read and advance
    /// happen under the collection lock).
    @Test(KeyringDaemon.trait) func hotpCountersAdvanceUnderTheLock() throws {
        guard KeyringDaemon.isAvailable() else { return }
        let sandbox = try KeyringDaemon.sandbox()
        let service = KeyringDaemon.uniqueService("hotp")
        let uri = "otpauth://hotp/x?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&counter=0"
        #expect(try sandbox.vault(["add", "--otp", "-s", service, "-a", "me"], stdin: Array(uri.utf8)).status == 0)
        let uses = try (0..<8).map { _ in try RunningVault(sandbox, ["otp", "-s", service, "-a", "me"]) }.map { $0.finish() }
        #expect(uses.allSatisfy { $0.status == 0 }, "\(uses.map(\.stderr))")
        #expect(Set(uses.map(\.stdoutText)).count == 8, "\(uses.map(\.stdoutText))")
        #expect(try sandbox.vault(["get", "-s", service, "-a", "me"]).stdoutText == uri.replacing("counter=0", with: "counter=8"))
        #expect(try sandbox.vault(["delete", "-s", service, "-a", "me"]).status == 0)
    }

    @Test(KeyringDaemon.trait) func groupsAreSeparateItems() throws {
        guard KeyringDaemon.isAvailable() else { return }
        let sandbox = try KeyringDaemon.sandbox()
        let service = KeyringDaemon.uniqueService("groups")
        #expect(try sandbox.vault(["add", "-s", service, "-a", "bot"], stdin: Array("default".utf8)).status == 0)
        #expect(try sandbox.vault(["add", "-s", service, "-a", "bot", "--group", "ci"], stdin: Array("ci".utf8)).status == 0)
        #expect(try sandbox.vault(["get", "-s", service, "-a", "bot", "--group", "ci"]).stdoutText == "ci")
        #expect(try sandbox.vault(["get", "-s", service, "-a", "bot", "--group", "default"]).stdoutText == "default")
        #expect(try sandbox.vault(["get", "-s", service, "-a", "bot"]).status == 2)
        #expect(try sandbox.vault(["delete", "-s", service, "--all-matching"]).status == 0)
    }

    @Test(KeyringDaemon.trait) func secretToolReadsWhatVaultStores() throws {
        guard KeyringDaemon.isAvailable() else { return }
        let sandbox = try KeyringDaemon.sandbox()
        let service = KeyringDaemon.uniqueService("to-tool")
        #expect(try sandbox.vault(["add", "-s", service, "-a", "alice"], stdin: Array("from-vault".utf8)).status == 0)
        let lookup = try sandbox.run("/usr/bin/secret-tool", ["lookup", "service", service, "account", "alice"])
        #expect(lookup.status == 0, "\(lookup.stderr)")
        #expect(lookup.stdoutText == "from-vault")
        let search = try sandbox.run("/usr/bin/secret-tool", ["search", "--all", "service", service])
        let shown = search.stdoutText + search.stderr  // secret-tool prints the attributes on stderr
        #expect(shown.contains("schema = io.github.vault.Item"))
        #expect(shown.contains("attribute.access-group = default"))
        #expect(shown.contains("attribute.accessibility = when-unlocked"))
        #expect(try sandbox.vault(["delete", "-s", service, "-a", "alice"]).status == 0)
    }

    @Test(KeyringDaemon.trait) func vaultReadsWhatSecretToolStores() throws {
        guard KeyringDaemon.isAvailable() else { return }
        let sandbox = try KeyringDaemon.sandbox()
        let service = KeyringDaemon.uniqueService("from-tool")
        let store = try sandbox.run(
            "/usr/bin/secret-tool", ["store", "--label=Tool item", "service", service, "account", "bob"],
            stdin: Array("from-tool".utf8))
        #expect(store.status == 0, "\(store.stderr)")
        #expect(try sandbox.vault(["get", "-s", service, "-a", "bob"]).stdoutText == "from-tool")
        let list = try sandbox.vault(["list", "--service", service, "--json"])
        #expect(list.stdoutText.contains("\"label\":\"Tool item\"") && list.stdoutText.contains("\"group\":\"default\""))
        #expect(try sandbox.vault(["update", "-s", service, "-a", "bob"], stdin: Array("changed".utf8)).status == 0)
        #expect(try sandbox.run("/usr/bin/secret-tool", ["lookup", "service", service, "account", "bob"]).stdoutText == "changed")
        #expect(try sandbox.vault(["delete", "-s", service, "-a", "bob"]).status == 0)
        #expect(try sandbox.run("/usr/bin/secret-tool", ["lookup", "service", service, "account", "bob"]).status != 0)
    }

    @Test(KeyringDaemon.trait) func sessionCollectionKeepsItsOwnItems() throws {
        guard KeyringDaemon.isAvailable() else { return }
        let sandbox = try KeyringDaemon.sandbox()
        let service = KeyringDaemon.uniqueService("session")
        #expect(
            try sandbox.vault(["--collection", "session", "add", "-s", service, "-a", "tmp"], stdin: Array("in-memory".utf8)).status == 0)
        #expect(try sandbox.vault(["--collection", "session", "get", "-s", service, "-a", "tmp"]).stdoutText == "in-memory")
        #expect(try sandbox.vault(["get", "-s", service, "-a", "tmp"]).status == 44, "the default collection does not hold it")
        let viaEnvironment = try sandbox.vault(["list", "--service", service], environment: ["VAULT_COLLECTION": "session"])
        #expect(viaEnvironment.stdoutText.contains("tmp"))
        #expect(try sandbox.vault(["--collection", "session", "delete", "-s", service, "-a", "tmp"]).status == 0)
        let missing = try sandbox.vault(["--collection", "no-such-collection", "list"])
        #expect(missing.status == 50)
        #expect(missing.stderr.contains("no collection \"no-such-collection\""))
    }

    @Test(KeyringDaemon.trait) func keyringKeyslotUnlocksTheVaultFile() throws {
        guard KeyringDaemon.isAvailable() else { return }
        let sandbox = try KeyringDaemon.sandbox()
        sandbox.environment["VAULT_BACKEND"] = nil
        try sandbox.write("pass", Array("passphrase".utf8))
        #expect(try sandbox.vault(["init", "--passphrase-file", "pass", "--kdf-cost", "testing"]).status == 0)
        #expect(
            try sandbox.vault(["--passphrase-file", "pass", "add", "-s", "db", "-a", "admin"], stdin: Array("hunter2".utf8)).status == 0)
        #expect(try sandbox.vault(["get", "-s", "db", "-a", "admin"]).status == 36, "locked, no terminal")

        var result = try sandbox.vault(["--passphrase-file", "pass", "passwd", "--add-keyring-slot"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try sandbox.vault(["status"]).stdoutText.contains("passphrase, desktop keyring"))
        result = try sandbox.vault(["get", "-s", "db", "-a", "admin"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText == "hunter2")
        #expect(try sandbox.vault(["--passphrase-file", "pass", "passwd", "--add-keyring-slot"]).status == 2, "one keyring slot")

        result = try sandbox.vault(["passwd", "--remove-keyring-slot"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("removed the desktop-keyring keyslot and its key"))
        #expect(try sandbox.vault(["get", "-s", "db", "-a", "admin"]).status == 36)
        #expect(try sandbox.vault(["--passphrase-file", "pass", "passwd", "--remove-keyring-slot"]).status == 51)
    }

    @Test(KeyringDaemon.trait) func lockedCollectionWithoutTerminalExits36() throws {
        guard KeyringDaemon.isAvailable() else { return }
        // Locking the shared keyring would break the other tests, and a locked
        // login keyring opens only through a prompt: lock one of its own instead.
        let sandbox = try KeyringDaemon.sandbox()
        let script = """
            set -e
            mkdir -m 700 "$HOME/run"
            # As scripts/with-keyring.sh: an activated daemon joins this one, and the name is ours before the first request.
            dbus-update-activation-environment HOME="$HOME" XDG_RUNTIME_DIR="$HOME/run"
            printf pw | XDG_RUNTIME_DIR="$HOME/run" gnome-keyring-daemon --daemonize --unlock --components=secrets >/dev/null
            gdbus wait --session --timeout 20 org.freedesktop.secrets
            printf secret-value | vault add -s locked -a one
            gdbus call --session --dest org.freedesktop.secrets --object-path /org/freedesktop/secrets \
                --method org.freedesktop.Secret.Service.Lock "[objectpath '/org/freedesktop/secrets/collection/login']" >/dev/null
            set +e
            vault list
            echo "list=$?" >&2
            vault get -s locked -a one >"$HOME/got"
            echo "exit=$?" >&2
            echo "got=[$(cat "$HOME/got")]" >&2
            """
        let result = try sandbox.run(
            "/usr/bin/dbus-run-session", ["--", "/bin/sh", "-c", script],
            environment: ["DBUS_SESSION_BUS_ADDRESS": ""])
        #expect(result.stderr.contains("exit=36"), "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "vault: error: the keyring collection \"default\" is locked and vault may not show its unlock prompt here (no terminal)"))
        #expect(result.stderr.contains("list=0"), "attributes are readable while the collection is locked")
        #expect(result.stdoutText.contains("locked") && !result.stdoutText.contains("secret-value"))
        #expect(result.stderr.contains("got=[]"), "get printed the secret of a locked collection: \(result.stderr)")
    }
}

/// What holds without any keyring daemon: the binary does not link libsecret,
/// and a missing libsecret is one clear error while the file backend works.
@Suite struct SecretServiceLoadingTests {
    @Test func binaryDoesNotLinkLibsecretOrGLib() throws {
        let sandbox = try Sandbox()
        let ldd = try sandbox.run("/usr/bin/ldd", [Sandbox.vaultBinary])
        #expect(ldd.status == 0)
        #expect(ldd.stdoutText.contains("libc.so"))
        for library in ["libsecret", "libglib", "libgio", "libgobject", "libdbus"] {
            #expect(!ldd.stdoutText.contains(library), "vault links \(library)")
        }
    }

    @Test func missingLibsecretIsOneClearErrorAndTheFileBackendStillWorks() throws {
        let sandbox = try Sandbox()
        sandbox.environment["VAULT_LIBSECRET_PATH"] = sandbox.path("no-such-dir/libsecret-1.so.0")
        let result = try sandbox.vault(["--backend", "secret-service", "list"])
        #expect(result.status == 1)
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("vault: error:") }
        #expect(errors.count == 1)
        #expect(errors.first?.contains("needs libsecret") == true && errors.first?.contains("Debian package libsecret-1-0") == true)
        #expect(result.stderr.contains("vault: hint: install it with 'apt-get install libsecret-1-0'"))

        try sandbox.initWithKeyFile()
        #expect(try sandbox.vault(["add", "-s", "github", "-a", "ci"], stdin: Array("file-backend".utf8)).status == 0)
        #expect(try sandbox.vault(["get", "-s", "github", "-a", "ci"]).stdoutText == "file-backend")
    }
}
