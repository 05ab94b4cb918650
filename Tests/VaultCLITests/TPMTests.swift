import Foundation
import Testing

/// The device key sealed by a TPM 2.0 (issue 38), end to end: the built binary against Debian's
/// swtpm, one software TPM per test, its seal bound to PCR 23 (resettable and extendable by
/// anyone, so a test can change "the machine's state"). Without swtpm these fail, naming the
/// packages (`make deps` installs them).
@Suite struct TPMTests {
    static let pcrConfig = "tpm-pcrs = 23\n"

    /// A vault made with the TPM `tpm`: only the sealed device key on disk.
    private func sealedVault(_ tpm: SoftwareTPM) throws -> Sandbox {
        let sandbox = try Sandbox()
        sandbox.environment["VAULT_TPM"] = tpm.tcti
        try FileManager.default.createDirectory(
            atPath: sandbox.path(".config/vault"), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        try sandbox.write(".config/vault/config", Array(TPMTests.pcrConfig.utf8))
        try sandbox.write("pass", Array("correct horse".utf8))
        let created = try sandbox.vault(["init", "--passphrase-file", sandbox.path("pass"), "--kdf-cost", "testing"])
        #expect(created.status == 0 && created.stderr.contains("sealed this machine's device key by the TPM (PCR 23)"), "\(created.stderr)")
        // The PCR-bound seal and its recovery seal (`<id>.recovery.tpm`, no PCRs, its auth from the master key).
        #expect(deviceKeyFiles(sandbox).map { $0.hasSuffix(".recovery.tpm") } == [true, false], "\(deviceKeyFiles(sandbox))")
        return sandbox
    }

    private func deviceKeyFiles(_ sandbox: Sandbox) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: sandbox.path(".local/share/vault/device-keys"))) ?? [])
            .filter { $0.hasSuffix(".key") || $0.hasSuffix(".tpm") }.sorted()
    }

    /// The files under `directory` (relative paths) whose bytes contain `key`.
    private func filesHolding(_ key: [UInt8], under directory: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: directory)
        var found: [String] = []
        while let name = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let path = directory + "/" + name
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                let data = FileManager.default.contents(atPath: path)
            else { continue }
            if data.range(of: Data(key)) != nil { found.append(name) }
        }
        return found
    }

    private func unlocked(_ sandbox: Sandbox) -> [String] { ["--passphrase-file", sandbox.path("pass")] }

    /// One item of every class, its account the class's name, its secret "secret of CLASS".
    private func addOneOfEveryClass(_ sandbox: Sandbox) throws {
        for accessibility in Self.classes {
            let added = try sandbox.vault(
                ["add", "-s", "svc", "-a", accessibility, "--class", accessibility] + unlocked(sandbox),
                stdin: Array("secret of \(accessibility)".utf8))
            #expect(added.status == 0, "\(accessibility): \(added.stderr)")
        }
    }

    private func read(_ sandbox: Sandbox, _ accessibility: String, environment: [String: String] = [:], unlock: Bool = true) throws
        -> RunResult
    {
        try sandbox.vault(["get", "-s", "svc", "-a", accessibility] + (unlock ? unlocked(sandbox) : []), environment: environment)
    }

    static let deviceBound = [
        "when-unlocked-this-device-only", "after-first-unlock-this-device-only", "always-this-device-only",
        "when-passcode-set-this-device-only"
    ]
    static let others = ["when-unlocked", "after-first-unlock", "always"]
    static let classes = others + deviceBound

    @Test func everyThisDeviceOnlyClassReadsWithTheTPM() throws {
        let tpm = try SoftwareTPM()
        let sandbox = try sealedVault(tpm)
        try addOneOfEveryClass(sandbox)
        for accessibility in Self.classes {
            let result = try read(sandbox, accessibility)
            #expect(result.status == 0 && result.stdoutText == "secret of \(accessibility)", "\(accessibility): \(result.stderr)")
        }
        let status = try sandbox.vault(["status"])
        #expect(status.stdoutText.contains("device key:         sealed by the TPM (PCR 23)"), "\(status.stdoutText)")
        #expect(try sandbox.vault(["device-key"]).stdoutText == "sealed by the TPM (PCR 23)\n")
    }

    @Test func aCopyOnAnotherMachinesTPMOpensOnlyTheOtherClasses() throws {
        let tpm = try SoftwareTPM()
        let sandbox = try sealedVault(tpm)
        try addOneOfEveryClass(sandbox)
        // Another machine: the vault, data and state directories copied, its own TPM (a fresh swtpm state).
        let otherTPM = try SoftwareTPM()
        let other = try Sandbox()
        other.environment["VAULT_TPM"] = otherTPM.tcti
        try FileManager.default.createDirectory(atPath: other.path(".local"), withIntermediateDirectories: true)
        for directory in [".local/share", ".local/state", ".config"] {
            try FileManager.default.copyItem(atPath: sandbox.path(directory), toPath: other.path(directory))
        }
        try other.write("pass", Array("correct horse".utf8))
        for accessibility in Self.deviceBound {
            let result = try read(other, accessibility)
            #expect(result.status == 32 && result.stdout.isEmpty, "\(accessibility): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("sealed by another TPM"), "\(result.stderr)")
        }
        for accessibility in Self.others {
            let result = try read(other, accessibility)
            #expect(result.status == 0 && result.stdoutText == "secret of \(accessibility)", "\(accessibility): \(result.stderr)")
        }
        // The copy and the passphrase are not enough to re-seal: the recovery seal loads only in the TPM that made it (32).
        let filesBefore = deviceKeyFiles(other).map { other.read(".local/share/vault/device-keys/" + $0) }
        let reseal = try other.vault(["device-key", "--tpm", "--reseal"] + unlocked(other))
        #expect(reseal.status == 32 && reseal.stderr.contains("sealed by another TPM"), "\(reseal.status) \(reseal.stderr)")
        #expect(deviceKeyFiles(other).map { other.read(".local/share/vault/device-keys/" + $0) } == filesBefore)
        for accessibility in Self.deviceBound {
            #expect(try read(other, accessibility).status == 32, "\(accessibility) after the re-seal attempt")
        }
    }

    @Test func aResealWithAnUnlockRecoversTheDeviceKeyAfterAPCRChange() throws {
        let tpm = try SoftwareTPM()
        let sandbox = try sealedVault(tpm)
        try addOneOfEveryClass(sandbox)
        try tpm.extendPCR(23)
        for accessibility in Self.deviceBound {
            #expect(try read(sandbox, accessibility).status == 32, "\(accessibility)")
        }
        // Without an unlock (no session, no credential): locked, and nothing changes.
        let vaultBefore = sandbox.read(".local/share/vault/default.vault")
        let keysBefore = deviceKeyFiles(sandbox).map { sandbox.read(".local/share/vault/device-keys/" + $0) }
        let locked = try sandbox.vault(["device-key", "--tpm", "--reseal"])
        #expect(locked.status == 36, "\(locked.status) \(locked.stderr)")
        #expect(sandbox.read(".local/share/vault/default.vault") == vaultBefore)
        #expect(deviceKeyFiles(sandbox).map { sandbox.read(".local/share/vault/device-keys/" + $0) } == keysBefore)
        // With the passphrase file and no session: the recovery seal gives the key, sealed again under PCR 23's value now.
        let resealed = try sandbox.vault(["device-key", "--tpm", "--reseal"] + unlocked(sandbox))
        #expect(resealed.status == 0 && resealed.stderr.contains("sealed the device key again by the TPM (PCR 23)"), "\(resealed.stderr)")
        #expect(sandbox.read(".local/share/vault/default.vault") == vaultBefore, "the vault file is not rewritten")
        for accessibility in Self.classes {
            let result = try read(sandbox, accessibility)
            #expect(result.status == 0 && result.stdoutText == "secret of \(accessibility)", "\(accessibility): \(result.stderr)")
        }
        #expect(try read(sandbox, "always-this-device-only", unlock: false).stdoutText == "secret of always-this-device-only")
    }

    @Test func aChangedPCRRefusesOnlyTheDeviceBoundItemsAndChangesNothing() throws {
        let tpm = try SoftwareTPM()
        let sandbox = try sealedVault(tpm)
        try addOneOfEveryClass(sandbox)
        try tpm.extendPCR(23)
        for accessibility in Self.deviceBound {
            let result = try read(sandbox, accessibility)
            #expect(result.status == 32, "\(accessibility): \(result.status) \(result.stderr)")
            #expect(
                result.stderr.contains("this machine's state changed (PCR 23)") && result.stderr.contains("--reseal"), "\(result.stderr)")
            #expect(!result.stderr.contains("damaged"))
        }
        // `always-this-device-only` with no unlock at all says the same.
        #expect(try read(sandbox, "always-this-device-only", unlock: false).status == 32)
        for accessibility in Self.others {
            let result = try read(sandbox, accessibility)
            #expect(result.status == 0 && result.stdoutText == "secret of \(accessibility)", "\(accessibility): \(result.stderr)")
        }
        // Nothing is written, re-sealed or replaced while the TPM refuses.
        let vaultBefore = sandbox.read(".local/share/vault/default.vault")
        let keysBefore = deviceKeyFiles(sandbox).map { sandbox.read(".local/share/vault/device-keys/" + $0) }
        for command in [
            ["add", "-s", "new", "-a", "one"], ["device-key", "--no-tpm"],
            ["rekey", "--yes", "--kdf-cost", "testing"]
        ] {
            let result = try sandbox.vault(command + unlocked(sandbox), stdin: Array("x".utf8))
            #expect(result.status == 32, "\(command): \(result.status) \(result.stderr)")
        }
        #expect(sandbox.read(".local/share/vault/default.vault") == vaultBefore)
        #expect(deviceKeyFiles(sandbox).map { sandbox.read(".local/share/vault/device-keys/" + $0) } == keysBefore)
        // The state the key was sealed in comes back: everything opens again.
        try tpm.tool("tpm2_pcrreset", ["23"])
        for accessibility in Self.classes {
            #expect(try read(sandbox, accessibility).status == 0, "\(accessibility)")
        }
    }

    /// A `<vault id>.tpm` that the TPM opens, but whose key is not the vault's device key: another
    /// vault's seal put in its place, or this vault's own from before a re-key (a restored backup).
    /// It is told as such (32, not "bound to another device"), no write drops the device-bound
    /// items, and `--reseal` with an unlock takes the device key from the recovery seal.
    @Test func aSealOfAnotherKeyIsNotThisVaultsAndDropsNothing() throws {
        for stale in ["another vault's seal", "the seal from before a re-key"] {
            let tpm = try SoftwareTPM()
            let sandbox = try sealedVault(tpm)
            try addOneOfEveryClass(sandbox)
            guard let sealName = deviceKeyFiles(sandbox).first(where: { !$0.hasSuffix(".recovery.tpm") }) else {
                Issue.record("no sealed device key: \(deviceKeyFiles(sandbox))")
                continue
            }
            let sealPath = ".local/share/vault/device-keys/" + sealName
            var staleSeal: [UInt8]?
            if stale == "another vault's seal" {
                let other = try sandbox.vault([
                    "--vault", sandbox.path("other.vault"), "init", "--passphrase-file", sandbox.path("pass"), "--kdf-cost", "testing"
                ])
                #expect(other.status == 0, "\(other.stderr)")
                staleSeal = deviceKeyFiles(sandbox).first { !$0.hasSuffix(".recovery.tpm") && $0 != sealName }
                    .flatMap { sandbox.read(".local/share/vault/device-keys/" + $0) }
            } else {
                staleSeal = sandbox.read(sealPath)
                let rekeyed = try sandbox.vault(["rekey", "--yes", "--kdf-cost", "testing"] + unlocked(sandbox))
                #expect(rekeyed.status == 0, "\(rekeyed.stderr)")
            }
            guard let staleSeal else {
                Issue.record("\(stale): no seal to put in place")
                continue
            }
            try sandbox.write(sealPath, staleSeal)
            for accessibility in Self.deviceBound {
                let result = try read(sandbox, accessibility)
                #expect(result.status == 32 && result.stdout.isEmpty, "\(stale), \(accessibility): \(result.status) \(result.stderr)")
                #expect(
                    result.stderr.contains("is not this vault's seal") && result.stderr.contains("--reseal")
                        && !result.stderr.contains("another device"), "\(stale): \(result.stderr)")
            }
            for accessibility in Self.others {
                #expect(try read(sandbox, accessibility).stdoutText == "secret of \(accessibility)", "\(stale), \(accessibility)")
            }
            // Nothing that reads the seal drops the items bound to the vault's real device key.
            let vaultBefore = sandbox.read(".local/share/vault/default.vault")
            for command in [["rekey", "--yes", "--kdf-cost", "testing"], ["add", "-s", "new", "-a", "one"]] {
                let result = try sandbox.vault(command + unlocked(sandbox), stdin: Array("x".utf8))
                #expect(
                    result.status == 32 && result.stderr.contains("is not this vault's seal"),
                    "\(stale), \(command): \(result.status) \(result.stderr)")
            }
            #expect(sandbox.read(".local/share/vault/default.vault") == vaultBefore, "\(stale): the vault changed")
            // The recovery seal is this vault's: a re-seal with an unlock takes the device key from it.
            let resealed = try sandbox.vault(["device-key", "--tpm", "--reseal"] + unlocked(sandbox))
            #expect(
                resealed.status == 0 && resealed.stderr.contains("sealed the device key again by the TPM (PCR 23)"),
                "\(stale): \(resealed.status) \(resealed.stderr)")
            for accessibility in Self.classes {
                let result = try read(sandbox, accessibility)
                #expect(
                    result.status == 0 && result.stdoutText == "secret of \(accessibility)", "\(stale), \(accessibility): \(result.stderr)")
            }
        }
    }

    @Test func theRecoverySealFollowsAPassphraseChangeAndNeedsThePIN() throws {
        let tpm = try SoftwareTPM()
        let sandbox = try sealedVault(tpm)
        try addOneOfEveryClass(sandbox)
        // A passphrase change that rotates the master key makes the recovery seal again for the new key.
        let recoveryPath = deviceKeyFiles(sandbox).filter { $0.hasSuffix(".recovery.tpm") }.map { ".local/share/vault/device-keys/" + $0 }
        let recoveryBefore = recoveryPath.map { sandbox.read($0) }
        try sandbox.write("new-pass", Array("battery staple".utf8))
        let changed = try sandbox.vault(["passwd", "--new-passphrase-file", sandbox.path("new-pass")] + unlocked(sandbox))
        #expect(changed.status == 0 && changed.stderr.contains("rotated"), "\(changed.stderr)")
        #expect(recoveryPath.map { sandbox.read($0) } != recoveryBefore, "the recovery seal is made again")
        try sandbox.write("pass", Array("battery staple".utf8))
        // It opens with the new master key after a PCR change (a stale one would be refused, 32, without asking the TPM).
        try tpm.extendPCR(23)
        let afterChange = try sandbox.vault(["device-key", "--tpm", "--reseal"] + unlocked(sandbox))
        #expect(afterChange.status == 0, "\(afterChange.status) \(afterChange.stderr)")
        // With a PIN, the recovery seal needs it too.
        try sandbox.write("pin", Array("2468".utf8))
        let withPIN = ["VAULT_TPM_PIN_FILE": sandbox.path("pin")]
        #expect(try sandbox.vault(["device-key", "--tpm", "--reseal", "--pin"] + unlocked(sandbox), environment: withPIN).status == 0)
        try tpm.extendPCR(23)
        let keysBefore = deviceKeyFiles(sandbox).map { sandbox.read(".local/share/vault/device-keys/" + $0) }
        let noPIN = try sandbox.vault(["device-key", "--tpm", "--reseal"] + unlocked(sandbox))
        #expect(noPIN.status == 36 && noPIN.stderr.contains("sealed with a TPM PIN"), "\(noPIN.status) \(noPIN.stderr)")
        #expect(deviceKeyFiles(sandbox).map { sandbox.read(".local/share/vault/device-keys/" + $0) } == keysBefore)
        let resealed = try sandbox.vault(["device-key", "--tpm", "--reseal", "--pin"] + unlocked(sandbox), environment: withPIN)
        #expect(resealed.status == 0 && resealed.stderr.contains("PCR 23 and a PIN"), "\(resealed.status) \(resealed.stderr)")
        for accessibility in Self.classes {
            let result = try read(sandbox, accessibility, environment: withPIN)
            #expect(result.stdoutText == "secret of \(accessibility)", "\(accessibility): \(result.stderr)")
        }
    }

    @Test func wrongPINsEndInTheTPMsLockoutReportedAsSuch() throws {
        let tpm = try SoftwareTPM()
        let sandbox = try sealedVault(tpm)
        try addOneOfEveryClass(sandbox)
        try tpm.tool(
            "tpm2_dictionarylockout", ["--setup-parameters", "--max-tries=3", "--recovery-time=600", "--lockout-recovery-time=600"])
        try sandbox.write("pin", Array("2468".utf8))
        try sandbox.write("wrong-pin", Array("1357".utf8))
        let sealed = try sandbox.vault(
            ["device-key", "--tpm", "--reseal", "--pin"] + unlocked(sandbox), environment: ["VAULT_TPM_PIN_FILE": sandbox.path("pin")])
        #expect(sealed.status == 0 && sealed.stderr.contains("PCR 23 and a PIN"), "\(sealed.stderr)")
        let device = "when-unlocked-this-device-only"
        #expect(try read(sandbox, device, environment: ["VAULT_TPM_PIN_FILE": sandbox.path("pin")]).stdoutText == "secret of \(device)")
        // No PIN and no terminal: it says what it needs.
        #expect(try read(sandbox, device).status == 36)
        let wrong = ["VAULT_TPM_PIN_FILE": sandbox.path("wrong-pin")]
        for attempt in 1...3 {
            let result = try read(sandbox, device, environment: wrong)
            #expect(result.status == 51 && result.stderr.contains("wrong TPM PIN"), "attempt \(attempt): \(result.status) \(result.stderr)")
        }
        let lockedOut = try read(sandbox, device, environment: wrong)
        #expect(lockedOut.status == 54 && lockedOut.stderr.contains("dictionary-attack lockout"), "\(lockedOut.status) \(lockedOut.stderr)")
        // The right PIN too, now; the other classes still open.
        #expect(try read(sandbox, device, environment: ["VAULT_TPM_PIN_FILE": sandbox.path("pin")]).status == 54)
        #expect(try read(sandbox, "when-unlocked", environment: wrong).stdoutText == "secret of when-unlocked")
    }

    @Test func noFileHoldsTheClearDeviceKeyOnceSealed() throws {
        let tpm = try SoftwareTPM()
        let sandbox = try sealedVault(tpm)
        // Made as a file first, so the test knows its bytes; then sealed.
        #expect(try sandbox.vault(["device-key", "--no-tpm"] + unlocked(sandbox)).status == 0)
        guard let keyName = deviceKeyFiles(sandbox).first(where: { $0.hasSuffix(".key") }),
            let key = sandbox.read(".local/share/vault/device-keys/" + keyName)
        else {
            Issue.record("no device key file after --no-tpm: \(deviceKeyFiles(sandbox))")
            return
        }
        try addOneOfEveryClass(sandbox)
        #expect(filesHolding(key, under: sandbox.home).count == 1, "the search finds the clear key while it is a file")
        let sealed = try sandbox.vault(["device-key", "--tpm"] + unlocked(sandbox))
        #expect(
            sealed.status == 0 && sealed.stderr.contains("sealed the device key by the TPM (PCR 23); its file is wiped"), "\(sealed.stderr)"
        )
        // A session holds the key too (sealed under its token): reads under it need no TPM at all.
        let token = try sandbox.vault(["unlock", "--raw"] + unlocked(sandbox)).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.hasPrefix("vs1_"))
        #expect(filesHolding(key, under: sandbox.home).isEmpty, "\(filesHolding(key, under: sandbox.home))")
        tpm.stop()
        for accessibility in Self.classes {
            let result = try read(sandbox, accessibility, environment: ["VAULT_SESSION": token], unlock: false)
            #expect(result.stdoutText == "secret of \(accessibility)", "\(accessibility) with the TPM stopped: \(result.stderr)")
        }
        #expect(try read(sandbox, Self.deviceBound[0]).status == 53, "without the session, the stopped TPM is missed")
    }

    @Test func sealingAndUnsealingRoundTripsWithEveryItemIntact() throws {
        let tpm = try SoftwareTPM()
        let sandbox = try sealedVault(tpm)
        try addOneOfEveryClass(sandbox)
        let sealedBytes = deviceKeyFiles(sandbox).map { sandbox.read(".local/share/vault/device-keys/" + $0) }
        let again = try sandbox.vault(["device-key", "--tpm"])
        #expect(again.status == 0 && again.stderr.contains("already sealed by the TPM (PCR 23); nothing changed"), "\(again.stderr)")
        #expect(deviceKeyFiles(sandbox).map { sandbox.read(".local/share/vault/device-keys/" + $0) } == sealedBytes)
        // Moving back needs an unlock.
        #expect(try sandbox.vault(["device-key", "--no-tpm"]).status == 36)
        for round in 1...2 {
            let toFile = try sandbox.vault(["device-key", "--no-tpm"] + unlocked(sandbox))
            #expect(toFile.status == 0 && toFile.stderr.contains("a 0600 file again"), "round \(round): \(toFile.stderr)")
            #expect(deviceKeyFiles(sandbox).map { $0.hasSuffix(".key") } == [true])
            for accessibility in Self.classes { #expect(try read(sandbox, accessibility).stdoutText == "secret of \(accessibility)") }
            // Sealing needs an unlock too: the recovery seal's auth comes from the master key.
            #expect(try sandbox.vault(["device-key", "--tpm"]).status == 36)
            #expect(try sandbox.vault(["device-key", "--tpm"] + unlocked(sandbox)).status == 0)
            #expect(deviceKeyFiles(sandbox).map { $0.hasSuffix(".tpm") } == [true, true])
            for accessibility in Self.classes { #expect(try read(sandbox, accessibility).stdoutText == "secret of \(accessibility)") }
        }
        // A re-key replaces the device key: the new one is sealed too, and no clear key is left.
        let rekeyed = try sandbox.vault(["rekey", "--yes", "--kdf-cost", "testing"] + unlocked(sandbox))
        #expect(rekeyed.status == 0, "\(rekeyed.stderr)")
        #expect(deviceKeyFiles(sandbox).map { $0.hasSuffix(".tpm") } == [true, true], "\(deviceKeyFiles(sandbox))")
        #expect(deviceKeyFiles(sandbox).map { sandbox.read(".local/share/vault/device-keys/" + $0) } != sealedBytes)
        for accessibility in Self.classes { #expect(try read(sandbox, accessibility).stdoutText == "secret of \(accessibility)") }
    }
}
