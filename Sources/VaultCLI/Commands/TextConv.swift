import VaultCore

/// `vault textconv FILE`: git's text conversion of a vault file (`diff.vault.textconv`, set by
/// `sync --setup`), so `git diff`, `git log -p` and `git show` name the items a commit touched.
/// Never prompts, never runs the passphrase's KDF, records nothing, and exits 0 whatever the
/// file: a diff must never fail because a blob is locked, old or not a vault.
enum TextConvCommand {
    static func run(_ arguments: FileArgument, _ invocation: Invocation) throws {
        let path = arguments.path
        let terminal = invocation.terminal
        let bytes: [UInt8]
        do {
            bytes = try Vault.readMergeSide(at: path)
        } catch {
            terminal.writeOut("(vault: cannot read this version: \(ErrorReport(error).message))\n")
            return
        }
        var access = VaultAccess(invocation)
        access.overriddenLocation = VaultLocation(path: path)
        let vault: Vault
        var lockedReason: String?
        do {
            // A member's identity reads only under the pinned trust fingerprint.
            vault = try access.vaultOpeningAtOnce(pinningTrust: true)
        } catch {
            lockedReason = "no keys: \(ErrorReport(error).message)"
            vault = Vault(location: VaultLocation(path: path), keys: .none, host: HostContext.live(environment: invocation.environment))
        }
        let summary: VaultFileSummary
        do {
            summary = try vault.summary(ofVersion: bytes, label: "this version of the vault file")
        } catch {
            terminal.writeOut("(not a vault file this vault reads: \(counted(bytes.count, "byte")))\n")
            return
        }
        if !summary.opened, lockedReason == nil { lockedReason = "locked" }
        terminal.writeOut(FileSummaryText.lines(summary, lockedReason: summary.opened ? nil : lockedReason).joined(separator: "\n") + "\n")
    }
}
