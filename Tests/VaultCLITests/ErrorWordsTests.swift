import Testing
import VaultCore
import VaultSecretService
@testable import VaultCLI

/// VaultCore's errors carry facts; the words are the command line's. These pin the sentences
/// that are put together from parts (a noun and its verb, a range of versions), which no
/// scenario reaches, so a change to a part shows here.
@Suite struct ErrorWordsTests {
    @Test func damageIsWordedFromItsParts() {
        let cases: [(Damage, String)] = [
            (.doesNotOpen(.record), "a record does not open"),
            (.doesNotOpen(.teamLogPayloads), "the team log's payloads do not open"),
            (.doesNotOpen(.bundleItems), "its sealed items do not open"),
            (.trailingBytes(after: .lastCredentialGroup), "bytes follow the last group"),
            (.unknownClass(in: .trashedRecord), "a trashed record names an unknown class"),
            (.truncated(expected: .value32, offset: 7), "the file ends where a 32-bit value was expected at offset 7"),
            (.truncated(expected: .bytes(12), offset: 40), "the file ends where 12 bytes were expected at offset 40"),
            (.count(.indexBuckets(max: 32768), 3), "an index of 3 buckets (not a power of two up to 32768)"),
            (
                .unsupportedVersion(.vaultFile, found: 9, reads: 1...3),
                "format version 9 is not supported (this vault reads versions 1 to 3)"
            ),
            (
                .unsupportedVersion(.credential, found: 5, reads: 1...2),
                "credential version 5 is not supported (this vault reads versions 1 and 2)"
            ),
            (.unsupportedVersion(.exportBundle, found: 2, reads: 1...1), "bundle version 2 is not supported (this vault reads version 1)"),
            (.missingPrefix("vault-credential-v1:"), "it does not start with vault-credential-v1:")
        ]
        for (damage, words) in cases { #expect(damage.description == words) }
    }

    @Test func injectionFaultsAreWordedByTheCommandLine() {
        #expect(throws: TemplateError.self) { try Template.parse(Array("{{ vault://a }}".utf8)) }
        do { _ = try Template.parse(Array("{{ vault://a }}".utf8)) } catch {
            #expect(error.problem == "vault://a: it has 1 part after vault://; it needs SERVICE/ACCOUNT or GROUP/SERVICE/ACCOUNT")
        }
        for (text, words) in [("A=1\nB='open", "the quote ' opened here is never closed"), ("NAME value", "expected \"=\" after NAME")] {
            #expect(throws: DotenvError.self) { try Dotenv.parse(text) }
            do { _ = try Dotenv.parse(text) } catch { #expect(error.problem == words) }
        }
        #expect(OneTimeCodeError.keyTooShort.problem == "the key is shorter than 80 bits (16 Base32 characters)")
    }

    @Test func valuesAndActionsAreWordedByTheCommandLine() {
        #expect(
            ErrorReport(VaultError.invalidValue(.secretTooLarge(size: 1_048_577, limit: 1 << 20))).message
                == "invalid secret: it is 1048577 bytes; the limit is 1048576 (1 MiB)")
        #expect(
            ErrorReport(VaultError.invalidValue(.attributeTooLarge(name: "label", size: 5000, limit: 4096))).message
                == "invalid label: it is 5000 bytes; the limit is 4096")
        #expect(
            ErrorReport(VaultError.invalidKeyFile(path: "k", .tooLong(limit: 64 * 1024))).message
                == "cannot use \"k\" as a credential: it holds more than 64 KiB")
        #expect(ErrorReport(VaultError.trustKeyNeeded(.rekeyVault)).message.hasPrefix("a member's identity cannot re-key the vault: "))
    }
    /// A refusal of one of a merge's files names that file: ours by its path and origin, theirs by
    /// its origin, the base as such; shown even where a path of that shape would be hidden.
    @Test func aMergeInputIsNamedByWhichFileItIs() {
        let path = "/home/alice/team/team.vault"
        #expect(
            ErrorReport(
                VaultError.mergeInput(.ours(origin: "HEAD abc1234"), refusal: .corrupted(path: path, detail: .doesNotOpen(.record)))
            ).message
                == "the vault \"/home/alice/team/team.vault (ours: HEAD abc1234)\" is damaged or was tampered with: a record does not open")
        #expect(
            ErrorReport(
                VaultError.mergeInput(
                    .theirs(origin: "MERGE_HEAD def5678"), refusal: .untrustedVault(path: path, pinned: "0123456789abcdef0123"))
            ).message
                == "the vault \"their side of the merge (MERGE_HEAD def5678)\" is not signed by the key you trust (trust fingerprint 0123456789abcdef…); it may have been written by someone else"
        )
        let rolledBack = ErrorReport(VaultError.mergeInput(.base, refusal: .rolledBack(path: path, found: 2, expected: 4)))
        #expect(
            rolledBack.message
                == "the vault \"the merge base\" was rolled back: its key epoch is 2, and this machine has seen (or was told to expect) 4")
        #expect(rolledBack.status == VaultError.rolledBack(path: path, found: 2, expected: 4).status)
        // A team log found not to fold during the merge is damage of the file merged into.
        #expect(
            ErrorReport(VaultError.corrupted(path: path, detail: .violates(.entryOutOfChain))).message
                == "the vault \"/home/alice/team/team.vault\" is damaged or was tampered with: a team log entry out of its chain")
    }

    @Test func aTeamLogReviewIsWordedLineByLine() {
        let bob = TeamLogReview.ReviewedMember(name: "bob", recipient: "age1bob", scope: .full)
        let runner = TeamLogReview.ReviewedMember(name: "ci-runner", recipient: "age1runner", scope: .groups(count: 1, readOnly: true))
        let erin = TeamLogReview.ReviewedMember(name: "erin", recipient: "age1erin", scope: .groups(count: 2, readOnly: false))
        let conversion = TeamLogReview(reason: .conversion, entries: [.member(bob), .member(runner)])
        #expect(
            TeamLogReviewText.heading(conversion) == "vault: this file predates the team log; its members become the log's first entry:")
        #expect(TeamLogReviewText.lines(conversion) == ["bob: full member, age1bob", "ci-runner: 1 group, read-only, age1runner"])
        let join = TeamLogReview(
            reason: .join,
            entries: [
                .created(memberCount: 1), .memberAdded(erin), .memberRemoved(name: "dave", recipient: "age1dave"),
                .rekeyed(trustKeyReplaced: false),
                .rekeyed(trustKeyReplaced: true), .groupKeyReplaced(AccessGroup("ci")!), .groupKeyReplaced(nil),
                .groupDeleted(AccessGroup("old")!),
                .joined(memberCount: 3)
            ])
        #expect(TeamLogReviewText.heading(join) == "vault: the team log diverged; the other branch holds entries not made here:")
        #expect(
            TeamLogReviewText.lines(join) == [
                "the log started with 1 member", "added erin: 2 groups, age1erin", "removed dave (age1dave)", "re-keyed",
                "re-keyed, with a new trust key", "gave group \"ci\" a new key", "gave a group since deleted a new key",
                "deleted group \"old\"",
                "joined two branches, 3 members kept"
            ])
        #expect(
            ErrorReport(VaultError.teamLogReviewNeeded(join)).message
                == "9 team log entries would be signed into the team log unseen; nothing was changed")
        #expect(
            ErrorReport(VaultError.teamLogReviewNeeded(conversion)).message
                == "2 members would be signed into the team log unseen; nothing was changed")
        #expect(
            ErrorReport(VaultError.teamLogReviewNeeded(conversion)).details == [
                "bob: full member, age1bob", "ci-runner: 1 group, read-only, age1runner"
            ],
            "the refusal without a terminal names every member it would sign, with scope and recipient")
        #expect(ErrorReport(VaultError.teamLogReviewNeeded(join)).details.count == 9)
    }

    @Test func aCodableItemErrorIsWordedByTheCommandLine() {
        let key = ItemKey(group: .default, service: "github", account: "ci-bot")
        let cases: [(CodableItemError.Operation, CodableItemError.Problem, String)] = [
            (.decoding, .notJSON, "it is not JSON"),
            (.decoding, .keyMissing("hosts", at: "$"), #"key "hosts" is missing at $"#),
            (.decoding, .nullWhereExpected(type: "Int", at: "$.port"), "null at $.port where Int is expected"),
            (.decoding, .typeMismatch(type: "String", at: "$.hosts[0]"), "the value at $.hosts[0] is not String"),
            (.decoding, .doesNotDecode(at: "$.rotated"), "the value at $.rotated does not decode"),
            (.encoding, .noJSONForm(at: "$[0]"), "the value at $[0] has no JSON form (e.g. a NaN or infinite number)"),
            (.encoding, .unknown, "it does not encode")
        ]
        for (operation, problem, words) in cases {
            let report = ErrorReport(CodableItemError(key: key, type: "Login", operation: operation, problem: problem))
            let verb = operation == .encoding ? "encode" : "decode"
            #expect(report.message == #"cannot \#(verb) item (group "default", service "github", account "ci-bot") as Login: \#(words)"#)
            #expect(report.status == .decode)
        }
    }
    /// The Secret Service backend's errors carry what was asked and why it failed; libsecret's own
    /// message is shown as it came.
    @Test func secretServiceFailuresAreWordedByTheCommandLine() {
        let cases: [(SecretServiceError, String)] = [
            (.failed(.readItemSecret, .noSecret), "the desktop keyring could not read the item's secret: the keyring returned no secret"),
            (
                .failed(.findCollection("work"), .reported(.other, message: "Cannot autolaunch D-Bus")),
                #"the desktop keyring could not find the collection "work": Cannot autolaunch D-Bus"#
            ),
            (
                .failed(.changeItemAttributes, .reportedWithoutMessage),
                "the desktop keyring could not change the item's attributes: unknown error"
            ),
            (.serviceUnavailable(.noService), "no Secret Service answers on the D-Bus session bus: libsecret returned no service"),
            (
                .unlockFailed(collection: "default", .promptDismissed),
                #"the keyring collection "default" stayed locked: the unlock prompt was dismissed"#
            )
        ]
        for (error, words) in cases { #expect(ErrorReport(error).message == words) }
    }
}
