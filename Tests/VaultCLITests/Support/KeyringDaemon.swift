import Foundation
import Testing

/// The Secret Service the tests run against: the private D-Bus session and
/// GNOME Keyring daemon that scripts/with-keyring.sh (run by `make test`)
/// starts. Without one the Secret Service tests skip with the reason, except
/// in CI (CI set), where they run and fail.
enum KeyringDaemon {
    static let environment = ProcessInfo.processInfo.environment

    /// Why there is no daemon to test against, or nil when there is one.
    static let missingReason: String? = {
        if environment["VAULT_TEST_SECRET_SERVICE"] == "1", environment["DBUS_SESSION_BUS_ADDRESS"] != nil { return nil }
        return environment["VAULT_TEST_SECRET_SERVICE_SKIP"]
            ?? "no keyring daemon: run the tests with 'make test' or 'scripts/with-keyring.sh swift test'"
    }()

    static var isCI: Bool { !["", "0", "false", "no"].contains((environment["CI"] ?? "").lowercased()) }

    /// Skips a test, naming the reason, where no daemon could be started; in CI the test runs (and fails).
    /// The comment starts with "Secret Service", which scripts/check.sh counts.
    static let trait = ConditionTrait.enabled(
        if: missingReason == nil || isCI,
        Comment(rawValue: "Secret Service: \(missingReason ?? "")"))

    /// Records a failure and returns false when there is no daemon (reached only in CI).
    static func isAvailable() -> Bool {
        guard let reason = missingReason else { return true }
        Issue.record("CI is set, so the Secret Service tests must run, but no keyring daemon could be started: \(reason)")
        return false
    }

    /// A sandbox whose vault commands reach the test keyring through the secret-service backend.
    /// Every such sandbox shares one runtime directory, as the processes of one
    /// desktop user do, so they share the keyring's collection locks.
    static func sandbox() throws -> Sandbox {
        let sandbox = try Sandbox()
        sandbox.environment["DBUS_SESSION_BUS_ADDRESS"] = environment["DBUS_SESSION_BUS_ADDRESS"]
        sandbox.environment["VAULT_BACKEND"] = "secret-service"
        sandbox.environment["XDG_RUNTIME_DIR"] = sharedRuntimeDirectory
        return sandbox
    }

    /// The runtime directory of the keyring's user, for this test run.
    private static let sharedRuntimeDirectory: String = {
        let path = FileManager.default.temporaryDirectory.path + "/vault-test-keyring-run-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return path
    }()

    /// A service name no other test uses: every test shares the one keyring.
    static func uniqueService(_ name: String) -> String {
        "vault-test-\(name)-\(UUID().uuidString.prefix(8))"
    }
}
