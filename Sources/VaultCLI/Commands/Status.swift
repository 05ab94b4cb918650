import FoundationEssentials
import VaultCore

/// `vault status`: locked or unlocked, the after-first-unlock state, and item
/// counts by group and class — without an unlock.
enum StatusCommand {
    static func run(_ invocation: Invocation) throws {
        let access = VaultAccess(invocation)
        let vault = try access.vault()
        let report = try vault.status(sessionToken: access.sessionToken)
        let total = report.counts.reduce(0) { $0 + $1.count }
        let state = report.sessionExpiry.map { "unlocked (session ends at \(DateText.iso($0)) if idle)" } ?? "locked"
        let terminal = invocation.terminal
        if invocation.arguments.flag(.json) {
            var fields = [
                "\"path\":\(ItemOutput.jsonString(vault.location.path))",
                "\"backend\":\"file\"",
                "\"locked\":\(report.sessionExpiry == nil)",
            ]
            if let expiry = report.sessionExpiry { fields.append("\"session_expires\":\(ItemOutput.jsonString(DateText.iso(expiry)))") }
            fields.append("\"after_first_unlock\":\(report.afterFirstUnlock)")
            fields.append("\"on_its_device\":\(report.onItsDevice)")
            fields.append("\"keyslots\":[\(report.keyslots.map { ItemOutput.jsonString($0.rawValue) }.joined(separator: ","))]")
            fields.append("\"items\":\(total)")
            let counts = report.counts.map {
                "{\"group\":\(ItemOutput.jsonString($0.group)),\"class\":\"\($0.accessibility.rawValue)\",\"count\":\($0.count)}"
            }
            fields.append("\"counts\":[\(counts.joined(separator: ","))]")
            terminal.writeOut("{" + fields.joined(separator: ",") + "}\n")
            return
        }
        var lines = [
            "vault:              \(vault.location.path)",
            "backend:            file",
            "state:              \(state)",
            "after first unlock: \(report.afterFirstUnlock ? "yes (after-first-unlock items open without a session)" : "no")",
            "device:             \(report.onItsDevice ? "this machine (device-bound items open here)" : "another machine (device-bound items do not open here)")",
            "keyslots:           \(report.keyslots.map(\.rawValue).joined(separator: ", "))",
            "items:              \(total)",
        ]
        for count in report.counts {
            lines.append("  \(count.group) / \(count.accessibility.rawValue): \(count.count)")
        }
        terminal.writeOut(lines.joined(separator: "\n") + "\n")
    }
}
