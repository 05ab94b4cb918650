#if canImport(Glibc)
import Glibc
#endif

/// The two files `vault secret-service enable` writes and `disable` removes: the D-Bus activation
/// file that starts `vault secret-service serve` when a program first asks for org.freedesktop.secrets,
/// and the systemd user unit its `SystemdService=` names (dbus-broker, and dbus-daemon under systemd,
/// start services through it).
package struct SecretServiceActivation: Sendable {
    /// `${XDG_DATA_HOME:-~/.local/share}/dbus-1/services/org.freedesktop.secrets.service`.
    package let activationFile: String
    /// `${XDG_CONFIG_HOME:-~/.config}/systemd/user/vault-secret-service.service`.
    package let unitFile: String
    /// The unit's name.
    package static let unitName = "vault-secret-service.service"

    /// The paths for this environment.
    package init(environment: [String: String]) {
        activationFile = HostContext.dataHome(environment: environment) + "/dbus-1/services/org.freedesktop.secrets.service"
        let configHome =
            environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? "/") + "/.config"
        unitFile = configHome + "/systemd/user/" + SecretServiceActivation.unitName
    }

    /// The activation file's text for the binary at `program`.
    package static func activationText(program: String) -> String {
        "[D-BUS Service]\nName=org.freedesktop.secrets\nExec=\(program) secret-service serve\nSystemdService=\(unitName)\n"
    }

    /// The user unit's text for the binary at `program`.
    package static func unitText(program: String) -> String {
        "[Unit]\nDescription=vault as the desktop's Secret Service (org.freedesktop.secrets)\n\n"
            + "[Service]\nType=dbus\nBusName=org.freedesktop.secrets\nExecStart=\(program) secret-service serve\n"
    }

    /// Writes both files (atomically, 0600).
    package func write(program: String) throws {
        try SettingsFile.write(Array(SecretServiceActivation.activationText(program: program).utf8), to: activationFile)
        try SettingsFile.write(Array(SecretServiceActivation.unitText(program: program).utf8), to: unitFile)
    }

    /// Whether the activation file is there, and the program its Exec line names.
    package func installedProgram() -> String? {
        guard FileSystem.exists(activationFile), let bytes = try? PlainFile.read(activationFile) else { return nil }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where line.hasPrefix("Exec=") {
            return String(line.dropFirst(5).split(separator: " ").first ?? "")
        }
        return ""
    }

    /// Removes both files; returns the paths removed.
    package func remove() throws -> [String] {
        var removed: [String] = []
        for path in [activationFile, unitFile] where FileSystem.exists(path) {
            guard unlink(path) == 0 else { throw VaultError.io(path: path, operation: .remove, errno: errno) }
            removed.append(path)
        }
        return removed
    }
}
