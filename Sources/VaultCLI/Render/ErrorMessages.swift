#if canImport(Glibc)
import Glibc
#endif
import VaultCore
import VaultOpenBao
import VaultSecretService

/// The words for every error: written once, here, where they are printed.
struct ErrorReport {
    var status: Status
    var message: String
    /// Extra lines after the message (e.g. the candidates of an ambiguous query).
    var details: [String] = []
    var hint: String?

    init(_ error: Error) {
        switch error {
        case let error as UsageError:
            self.init(status: .usage, message: error.message, hint: error.hint)
        case let error as CommandFailure:
            self.init(status: error.status, message: error.message, details: error.details, hint: error.hint)
        case let error as VaultError:
            self = ErrorReport.describe(error)
        case let error as SecretServiceError:
            self = ErrorReport.describe(error)
        case let error as CodableItemError:
            self = ErrorReport.describe(error)
        case let error as OpenBaoError:
            self = ErrorReport.describe(error)
        default:
            self.init(status: .failure, message: "unexpected failure: \(error)", hint: nil)
        }
    }

    init(status: Status, message: String, details: [String] = [], hint: String?) {
        self.status = status
        self.message = message
        self.details = details
        self.hint = hint
    }

    /// `error` in words; `input`, when one of a merge's files was refused, names the file the
    /// refusal is of instead of its path.
    private static func describe(_ error: VaultError, of input: MergeInput? = nil) -> ErrorReport {
        let status = error.status
        /// The vault file named: `input` when there is one, else its path (`shown`: how).
        func vault(_ path: String, shown: (String) -> String = quoted) -> String {
            input.map { quoted(words($0, path: path)) } ?? shown(path)
        }
        switch error {
        case .itemNotFound(let query):
            var listHint = "list what exists with: vault list"
            if let service = query.service { listHint += " --service=\(shellQuoted(service))" }
            return ErrorReport(status: status, message: "no item for \(describe(query))", hint: listHint)
        case .duplicateItem(let key):
            return ErrorReport(
                status: status,
                message: "an item for service \(quoted(key.service)), account \(quoted(key.account)) already exists in group \(quoted(key.group.name))",
                hint: "replace it with 'vault add --update …', or change it with 'vault update'")
        case .ambiguous(let candidates):
            return ErrorReport(
                status: status, message: "\(candidates.count) items match; the command needs exactly one",
                details: candidates.map { "group \(quoted($0.group.name)), service \(quoted($0.service)), account \(quoted($0.account))" },
                hint: "name one as GROUP/SERVICE/ACCOUNT or with --service, --account and --group, or use --all-matching where the command has it")
        case .wrongBundleCredential(let kind):
            return ErrorReport(status: status, message: "the bundle \(kind == .keyFile ? "key file" : "passphrase") does not open the export bundle; nothing was imported",
                               hint: kind == .keyFile ? "give the key file the bundle was exported with: --bundle-key-file FILE"
                                   : "give the passphrase the bundle was exported with: --bundle-passphrase-file FILE, or leave it out to be asked")
        case .noBundleKeyslot(let kind):
            let other = kind == .keyFile ? "a passphrase: give --bundle-passphrase-file FILE, or leave it out to be asked" : "a key file: give --bundle-key-file FILE"
            return ErrorReport(status: status, message: "the export bundle does not open with a \(kind == .keyFile ? "key file" : "passphrase"); nothing was imported",
                               hint: "it was exported with \(other)")
        case .wrongCredential(.passphrase):
            return ErrorReport(status: status, message: "wrong passphrase", hint: "try again, or unlock with --key-file if the vault has a key-file keyslot")
        case .wrongCredential(.keyFile):
            return ErrorReport(status: status, message: "the key file does not open this vault",
                               hint: "point --key-file (or VAULT_KEY_FILE) at the key file this vault was set up with")
        case .wrongCredential(.desktopKeyring):
            return ErrorReport(status: status, message: "the key in the desktop keyring does not open this vault",
                               hint: "unlock with the passphrase, then run 'vault passwd --add-keyring-slot' again")
        case .noKeyslot(.desktopKeyring):
            return ErrorReport(status: status, message: "this vault has no desktop-keyring keyslot",
                               hint: "add one with 'vault passwd --add-keyring-slot'")
        case .noKeyslot(let kind):
            let other = kind == .passphrase ? "--key-file" : "--passphrase-file or the passphrase prompt"
            return ErrorReport(status: status, message: "this vault has no \(kind.name) keyslot", hint: "unlock it with \(other)")
        case .noSuchVault(let path):
            return ErrorReport(status: status, message: "no vault at \(quoted(path))",
                               hint: "create one with 'vault init', or choose another with --vault or VAULT_PATH")
        case .vaultExists(let path):
            return ErrorReport(status: status, message: "a vault already exists at \(quoted(path))",
                               hint: "use it as it is, or choose another path with --vault or VAULT_PATH")
        case .corrupted(let path, let detail):
            return ErrorReport(status: status, message: "the vault \(vault(path)) is damaged or was tampered with: \(detail)",
                               hint: "nothing was changed; restore the file from a backup")
        case .damagedGroup(let path, let group):
            return ErrorReport(status: status, message: "the vault \(vault(path)) is damaged or was tampered with in group \(quoted(group.name)): its index does not match its MAC",
                               hint: "every group but this one opens as before; 'vault verify --quarantine' sets its items aside, or restore the file from a backup")
        case .upgradeNeeded(let path, let byOwner, let inGitWorkTree):
            if byOwner {
                return ErrorReport(status: status, message: "the vault \(quoted(path)) is format v1, which this credential cannot change",
                                   hint: "its owner converts it with 'vault upgrade' (and commits the result if it is in git)")
            }
            return ErrorReport(status: status, message: "the vault \(quoted(path)) is format v1\(inGitWorkTree ? " in a git work tree" : ""); it was left unchanged",
                               hint: "convert it with 'vault upgrade' and commit it once every teammate runs a vault that reads format v2")
        case .rolledBack(let path, let found, let expected):
            return ErrorReport(status: status, message: "the vault \(vault(path)) was rolled back: its key epoch is \(found), and this machine has seen (or was told to expect) \(expected)",
                               hint: "restore the newest copy (git pull), or run with --accept-rollback if the restore was intended")
        case .behindSeen(let path, let found, let seen):
            return ErrorReport(status: status, message: "the vault \(quoted(path)) is behind what this machine has seen (generation \(found), seen \(seen)); nothing was changed",
                               hint: "bring the newest copy here (git pull), or run with --accept-rollback if going back was intended")
        case .siblingOfSeen(let path, let found, let seen):
            return ErrorReport(status: status, message: "the vault \(quoted(path)) is a sibling of the version this machine has seen: the same counters, "
                                   + "another write (write id \(found.hex), seen \(seen.hex)), made by another clone from the same base; nothing was changed",
                               hint: "merge the two with 'vault sync', or run with --accept-rollback to take this file as the vault")
        case .noRevision(let key, let requested, let kept):
            let names = "service \(quoted(key.service)), account \(quoted(key.account)) in group \(quoted(key.group.name))"
            return ErrorReport(status: status, message: "\(names) keeps \(kept == 0 ? "no earlier secret" : counted(kept, "earlier secret")); there is no revision \(requested)",
                               hint: kept == 0 ? "update keeps the secrets it replaces from now on (--keep N, default 5)"
                                   : "list them with 'vault history -s \(shellQuoted(key.service)) -a \(shellQuoted(key.account))'")
        case .noConflict(let key):
            let names = "service \(quoted(key.service)), account \(quoted(key.account)) in group \(quoted(key.group.name))"
            return ErrorReport(status: status, message: "\(names) is in no conflict", hint: "list the items in conflict with 'vault conflicts'")
        case .otherSideDeleted(let key, let current):
            let names = "service \(quoted(key.service)), account \(quoted(key.account)) in group \(quoted(key.group.name))"
            let (keep, drop) = current == .ours ? ("--ours", "--theirs") : ("--theirs", "--ours")
            return ErrorReport(status: status, message: "the other side of the conflict on \(names) deleted it: there is no other version to read",
                               hint: "keep it with 'vault resolve \(keep)' or delete it with 'vault resolve \(drop)' (see 'vault conflicts')")
        case .noConflictNumber(let key, let requested, let count):
            let names = "service \(quoted(key.service)), account \(quoted(key.account)) in group \(quoted(key.group.name))"
            return ErrorReport(status: status, message: "\(names) keeps \(counted(count, "conflict")); there is no conflict \(requested)",
                               hint: "give a number from 1 to \(count) ('vault conflicts' counts them)")
        case .recordTooLarge(let key):
            let names = "service \(quoted(key.service)), account \(quoted(key.account)) in group \(quoted(key.group.name))"
            return ErrorReport(status: status, message: "\(names) and the other versions a merge keeps beside it do not fit in one record (1 MiB + 63 KiB); nothing was merged",
                               hint: "merge it by hand: keep one side ('git checkout --ours' or '--theirs' and 'git add'), then make the other side's change again")
        case .mergeInput(let input, let refusal):
            return describe(refusal, of: input)
        case .mergeOfAnotherVault(let path):
            return ErrorReport(status: status, message: "the other side of the merge into \(quoted(path)) is another vault (its vault id differs); nothing was merged",
                               hint: "keep one side with 'git checkout --ours' or '--theirs', or find out who replaced the vault file")
        case .rekeyNeedsSecret:
            return ErrorReport(status: status, message: "re-keying needs the passphrase or key file itself, not an unlock session or an identity",
                               hint: "run it at a terminal to be asked, or give --passphrase-file or --key-file")
        case .insecurePermissions(let path, let mode):
            let octal = String(mode, radix: 8)
            return ErrorReport(status: status, message: "\(quoted(path)) is accessible by other users (mode 0\(octal))",
                               hint: "restrict it with 'chmod 600 \(shellQuoted(path))'")
        case .writableByOthers(let path, let mode):
            let octal = String(mode, radix: 8)
            return ErrorReport(status: status, message: "\(quoted(path)) may be changed by other users (mode 0\(octal))",
                               hint: "take their write access away with 'chmod go-w \(shellQuoted(path))'")
        case .ownedByAnotherUser(let path, let owner):
            return ErrorReport(status: status, message: "\(quoted(path)) is owned by another user (uid \(owner))",
                               hint: "check who put it there, then remove it or make it yours with 'sudo chown \(getuid()) \(shellQuoted(path))'")
        case .notARegularFile(let path, let fileType):
            return ErrorReport(status: status, message: "\(quoted(path)) is \(describe(fileType: fileType)), not a vault file",
                               hint: "name a vault file with --vault or VAULT_PATH, or a path where none is yet for 'vault init'")
        case .symbolicLink(let path):
            return ErrorReport(status: status, message: "\(quoted(path)) is a symbolic link; vault does not write through links",
                               hint: "give the real path, or remove the link first")
        case .invalidKeyFile(let path, let problem):
            return ErrorReport(status: status, message: "cannot use \(quoted(path)) as a credential: \(words(problem))",
                               hint: "point the option at the right file, or create a key file with 'vault init --key-file FILE'")
        case .boundToAnotherDevice(let group, let accessibility):
            return ErrorReport(status: status,
                               message: "an item of group \(quoted(group.name)) is \(accessibility.rawValue) and bound to another device",
                               hint: "its key never leaves the machine it was added on; add it again here if you need it")
        case .tpm(let failure):
            return TPMFailureWords.report(failure)
        case .noDeviceKey:
            return ErrorReport(status: status, message: "this machine has no device key for the vault (it was made on another machine)",
                               hint: "device-bound items open only where they were added; 'vault status' shows which machine this is")
        case .invalidValue(let value):
            return describe(value)
        case .invalidRecipient(let text, let reason):
            return ErrorReport(status: status, message: "cannot use \(quoted(String(text.prefix(80)))) as a recipient: \(words(reason))",
                               hint: "ask the member for the line 'vault identity new' (or age-keygen) printed: age1…")
        case .identityExists(let path):
            return ErrorReport(status: status, message: "an identity file is already at \(shownPath(path)); vault never overwrites one",
                               hint: "'vault identity show' prints its recipient; give --out FILE for another identity")
        case .noMemberSlot(let recipients):
            return ErrorReport(status: status, message: "no member slot of the vault opens with the identity given (recipient \(recipients.joined(separator: ", ")))",
                               hint: "ask the vault's owner to run 'vault member add NAME \(recipients.first ?? "age1…")', or check VAULT_IDENTITY and --vault")
        case .untrustedVault(let path, let pinned):
            return ErrorReport(status: status, message: "the vault \(vault(path, shown: shownPath)) is not signed by the key you trust (trust fingerprint \(pinned.prefix(16))…); it may have been written by someone else",
                               hint: "if the vault was re-keyed, run 'vault trust' where it is unlocked and pin the new fingerprint in VAULT_TRUST")
        case .trustNotPinned(let path):
            return ErrorReport(status: status, message: "an identity reads the vault \(vault(path, shown: shownPath)) only with a trust fingerprint pinned: anyone who can write the file can seal a member slot",
                               hint: "ask the vault's owner for the output of 'vault trust' and pin it here with 'vault trust --pin FINGERPRINT' (or VAULT_TRUST)")
        case .invalidTrustFingerprint(let source):
            return ErrorReport(status: status, message: "\(source) is not a trust fingerprint (64 hex digits)",
                               hint: "give what 'vault trust' prints")
        case .noSuchMember(let name):
            return ErrorReport(status: status, message: "the vault has no member named \(quoted(name))",
                               hint: "list the members with 'vault member list'")
        case .outsideMember(let name, let group, let covered):
            return ErrorReport(status: status,
                               message: "the member \(quoted(name)) does not cover group \(quoted(group.name)); it covers \(covered.map { quoted($0.name) }.joined(separator: ", "))",
                               hint: "name one of its groups, or ask the vault's owner for one with 'vault member add' --group \(shellQuoted(group.name))")
        case .readOnlyMember(let name):
            return ErrorReport(status: status, message: "the member \(quoted(name)) is read-only and cannot change items",
                               hint: "ask the vault's owner to add it again without --read-only, or make the change with the passphrase")
        case .scopedMemberCannot(let name, let action):
            return ErrorReport(status: status, message: "the scoped member \(quoted(name)) cannot \(words(action))",
                               hint: "unset VAULT_IDENTITY (or drop --identity) and unlock with the passphrase, a key file or a full member's identity")
        case .otherVersionSealedElsewhere(let key):
            let names = "service \(quoted(key.service)), account \(quoted(key.account)) in group \(quoted(key.group.name))"
            return ErrorReport(status: status, message: "the other version of \(names) lives in a group or class these keys do not open",
                               hint: "read or resolve it with the owner's keys, or with a credential of the group it moved to")
        case .unsealedVersionOfAnotherGroup(let key, let named):
            let names = "service \(quoted(key.service)), account \(quoted(key.account)) in group \(quoted(key.group.name))"
            return ErrorReport(status: status, message: "the other version of \(names) names group \(quoted(named.name)), but no key of that group sealed it; nothing was changed",
                               hint: "keep ours with 'vault resolve --ours', and add the value to group \(quoted(named.name)) yourself if it is right")
        case .unfinishedGitOperation(let path, let operation):
            return ErrorReport(status: status, message: "git holds \(words(operation)) of \(quoted(path))'s work tree unfinished: a change made now would be lost when it goes on or is aborted; nothing was changed",
                               hint: finishHint(operation))
        case .teamLogDropped(let path, let beforeChanging):
            return ErrorReport(status: status, message: "\(quoted(path)) drops team log entries of a file it was merged from (a merge resolved by hand?): it would undo a change of the team's members or keys; nothing was \(beforeChanging ? "changed" : "pushed")",
                               hint: "undo that merge commit ('git reset --hard HEAD^') and merge again with 'vault sync'")
        case .historyDropsTeamLog(let found):
            return ErrorReport(status: status, message: message(found), hint: hint(found))
        case .onlyOwnerJoins:
            return ErrorReport(status: status, message: "only the owner joins diverged team logs: both sides changed the team's members or keys, and nothing was merged",
                               hint: "ask the vault's owner to run 'vault sync' (passphrase or key file), then sync again")
        case .teamLogReviewNeeded(let review):
            // Every member or entry it would sign is named, so a refusal without a terminal shows what --accept-log would sign.
            return ErrorReport(status: status, message: "\(review.reason == .join ? "\(review.entries.count) team log \(review.entries.count == 1 ? "entry" : "entries")" : counted(review.entries.count, "member")) would be signed into the team log unseen; nothing was changed",
                               details: TeamLogReviewText.lines(review),
                               hint: review.unvouched.isEmpty ? "run it on a terminal to review them, or add --accept-log once you know them"
                                   : "run it on a terminal to review them, or add --accept-log --accept-member \(review.unvouched.joined(separator: ",")) once you have checked each member marked as not last written here")
        case .trustKeyNeeded(let action):
            return ErrorReport(status: status, message: "a member's identity cannot \(words(action)): only the owner's trust key signs changes to the team log and the key epoch",
                               hint: "ask the vault's owner, or run it with the passphrase or key file (unset VAULT_IDENTITY, or drop --identity)")
        case .identityCannot(let action):
            return ErrorReport(status: status, message: "an identity cannot \(words(action)): the keyslots are the owner's passphrase, key files and keyring key",
                               hint: "run it with the passphrase or key file (unset VAULT_IDENTITY, or drop --identity)")
        case .invalidIdentity(let source, let line, let reason):
            return ErrorReport(status: status, message: "cannot use \(source)\(line.map { " (line \($0))" } ?? "") as an identity: \(words(reason))",
                               hint: "make one with 'vault identity new', or name an age-keygen identity file")
        case .noSuchFile(let path, let kind):
            return ErrorReport(status: status, message: "cannot read the \(words(kind)) \(shownPath(path)): no such file", hint: makerHint(kind))
        case .unrecognizedCredential(let length):
            return ErrorReport(status: status,
                               message: "cannot use the credential given (\(length) characters, not shown): no such file, and not a credential's text",
                               hint: makerHint(.credential) + "; a path is shown in messages only when it starts with / or ./")
        case .unreadableFile(let path, let kind, EISDIR):
            return ErrorReport(status: status, message: "cannot read the \(words(kind)) \(shownPath(path)): it is a directory",
                               hint: "name a file, not a directory")
        case .unreadableFile(let path, let kind, let code):
            // A secret given where a path belongs (too long a name, say) is not echoed, in the hint either.
            let shown = shownPath(path)
            return ErrorReport(status: status, message: "cannot read the \(words(kind)) \(shown): \(String(cString: strerror(code)).lowercased())",
                               hint: shown == quoted(path) ? "check its permissions with 'ls -l \(shellQuoted(path))'" : "give the path of a file")
        case .io(let path, let operation, let code):
            return ErrorReport(status: status, message: "cannot \(words(operation)) \(quoted(path)): \(String(cString: strerror(code)))",
                               hint: ioHint(path: path, operation: operation, code: code))
        case .lastKeyslot:
            return ErrorReport(status: status, message: "that would remove the last way to unlock the vault",
                               hint: "add another first, e.g. 'vault passwd --add-key-file FILE'")
        case .locked(let accessibility?, let tried):
            return ErrorReport(status: status, message: "the vault is locked and items of class \(quoted(accessibility.rawValue)) need an unlock",
                               details: UnlockAttemptText.lines(tried), hint: unlockHint)
        case .locked(nil, let tried):
            return ErrorReport(status: status, message: "the vault is locked and this command needs it unlocked",
                               details: UnlockAttemptText.lines(tried), hint: unlockHint)
        case .sessionEnded(.expired):
            return ErrorReport(status: status, message: "the unlock session in VAULT_SESSION has expired", hint: unlockHint)
        case .sessionEnded(.unknown):
            return ErrorReport(status: status, message: "the unlock session in VAULT_SESSION has ended or belongs to another vault",
                               hint: unlockHint)
        case .sessionEnded(.rekeyed):
            return ErrorReport(status: status, message: "the unlock session ended: the vault was re-keyed after it started",
                               hint: unlockHint)
        case .sessionEnded(.malformed):
            return ErrorReport(status: status, message: "VAULT_SESSION does not hold a vault session token",
                               hint: "set it from 'vault unlock --raw', or unset it")
        case .damagedCredential(let source, let detail):
            return ErrorReport(status: status, message: "the credential in \(quoted(source)) is damaged: \(detail)",
                               hint: "copy it again from the output of 'vault grant', or ask the vault's owner for a new one")
        case .credentialExpired(let date):
            return ErrorReport(status: status, message: "the credential expired on \(DateText.iso(date))",
                               hint: "ask the vault's owner for a new one: vault grant --group GROUP --out FILE")
        case .credentialRevoked(let group):
            return ErrorReport(status: status, message: "the credential for group \(quoted(group.name)) was revoked",
                               hint: "ask the vault's owner for a new one: vault grant --group \(shellQuoted(group.name)) --out FILE")
        case .credentialForAnotherVault:
            return ErrorReport(status: status, message: "the credential was granted for another vault",
                               hint: "use it with the vault it came from (--vault PATH or VAULT_PATH), or get a grant from this one")
        case .outsideCredential(let group, let covered):
            return ErrorReport(status: status,
                               message: "the credential does not cover group \(quoted(group.name)); it covers \(covered.map { quoted($0.name) }.joined(separator: ", "))",
                               hint: Suggestion.closest(to: group.name, among: covered.map(\.name).filter { Suggestion.distance(group.name, $0) < max(2, group.name.count / 2) }).map { "did you mean \(quoted($0))? (--group \(shellQuoted($0)))" }
                                   ?? "name one of its groups, or ask for a grant with --group \(shellQuoted(group.name))")
        case .readOnlyCredential:
            return ErrorReport(status: status, message: "the credential is read-only and cannot change items",
                               hint: "ask the vault's owner for a grant without --read-only, or make the change with the passphrase")
        case .credentialPredatesConversion:
            return ErrorReport(status: status, message: "the credential was granted before the vault was converted to format v2: it reads, and cannot change items",
                               hint: "ask the vault's owner to grant it again ('vault grant')")
        case .ownerOnly(let action):
            return ErrorReport(status: status, message: "a scoped credential cannot \(words(action))",
                               hint: "unset VAULT_CREDENTIAL (or drop --credential) and unlock with the passphrase or key file")
        case .itemExpired(let attributes):
            return ErrorReport(
                status: status,
                message: "the item for service \(quoted(attributes.service)), account \(quoted(attributes.account)) in group \(quoted(attributes.group.name)) expired on \(attributes.details.expires.map(DateText.iso) ?? "?")",
                hint: "store a new secret with 'vault update … --expires WHEN' (or --expires never), or remove expired items with 'vault wipe --expired'")
        case .changedSinceShown:
            return ErrorReport(status: status, message: "the vault changed after the items to remove were shown; nothing was removed",
                               hint: "run the command again to see the items as they are now")
        case .damagedBundle(let path, let detail):
            return ErrorReport(status: status, message: "the export bundle \(quoted(path)) is damaged: \(detail)",
                               hint: "nothing was imported; export it again from the vault it came from")
        case .noSuchGroup(let group, let known):
            if let near = Suggestion.closest(to: group.name, among: known.map(\.name)) {
                return ErrorReport(status: status, message: "no group \(quoted(group.name))",
                                   hint: "did you mean \(quoted(near))? ('vault group list' shows every group)")
            }
            return ErrorReport(status: status, message: "no group \(quoted(group.name))",
                               hint: "list the groups with 'vault group list', or create it with 'vault group create \(shellQuoted(group.name))'")
        case .groupExists(let group):
            return ErrorReport(status: status, message: "the group \(quoted(group.name)) already exists",
                               hint: "use it as it is; 'vault group list' shows every group")
        case .passcodeNotSet:
            return ErrorReport(status: status, message: "this class needs a passphrase and the vault has none",
                               hint: "set one with 'vault passwd --new-passphrase-file FILE' first")
        }
    }

    /// What a file of this type (`st_mode & S_IFMT`) is, with its article.
    private static func describe(fileType: UInt32) -> String {
        switch mode_t(fileType) {
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
        }
    }

    /// A path the user gave, quoted, unless it looks like a secret put where a
    /// path belongs (a key's or credential's text, a long token, a passphrase
    /// of several words): then only its length.
    private static func shownPath(_ path: String) -> String {
        let tagged = ["vault-key-v1:", "vault-credential-v1:"].contains(where: path.contains)
        let secretLike = !path.contains("/") && (path.count >= 40 || path.contains(where: \.isWhitespace))
        guard tagged || secretLike || path.contains(where: \.isNewline) else { return quoted(path) }
        return "given (\(path.count) characters, not shown)"
    }

    /// What to check after a system call failed: a read names a missing or
    /// unreadable file, never the directory's write permission.
    private static func ioHint(path: String, operation: FileOperation, code: Int32) -> String {
        let reads = [.open, .read, .stat].contains(operation)
        switch code {
        case ENOENT where reads:
            return "the file does not exist: check the path"
        case EACCES where reads, EPERM where reads:
            return "you may not read it: check its permissions with 'ls -l \(shellQuoted(path))'"
        case ENOTDIR:
            return "a part of the path is a file, not a directory: check the path"
        default:
            return reads ? "check that the path names a file you may read"
                : "check that the path exists and that you may write to its directory"
        }
    }

    /// What a file of this kind is, after "the".
    private static func words(_ kind: InputFileKind) -> String {
        switch kind {
        case .credential: return "credential file"
        case .bundle: return "export bundle"
        case .keyFile: return "key file"
        case .bundleKeyFile: return "bundle key file"
        case .passphraseFile: return "passphrase file"
        case .secretFile: return "secret file"
        case .identity: return "identity file"
        case .plaintextExport: return "plaintext export"
        case .mergeSide: return "merge input"
        case .export: return "export file"
        }
    }

    /// Which command makes a missing file of this kind.
    private static func makerHint(_ kind: InputFileKind) -> String {
        switch kind {
        case .credential: return "make one with 'vault grant --group GROUP --out FILE', or point --credential (or VAULT_CREDENTIAL) at it"
        case .bundle: return "make one with 'vault export --out FILE' on the vault the items come from"
        case .keyFile: return "make one with 'vault init --key-file FILE' or 'vault passwd --add-key-file FILE', or point the option at it"
        case .bundleKeyFile: return "use the key file 'vault export --bundle-key-file FILE' made with the bundle"
        case .passphraseFile: return "write the passphrase to a file only you can read (chmod 600), or leave the option out to be asked"
        case .secretFile: return "check the path: --secret-file reads the secret from a file that exists"
        case .identity: return "make one with 'vault identity new', or point --identity (or VAULT_IDENTITY) at an age identity file"
        case .plaintextExport: return "make one with 'vault export --format csv --plaintext --out FILE' (or json) on the vault the items come from"
        case .mergeSide: return "git names the merge driver's files itself: run it as git configures it ('vault sync --setup')"
        case .export: return "export it from the other password manager first (docs/IMPORT.md says how), and give its path"
        }
    }

    private static let unlockHint =
        "unlock with 'eval \"$(vault unlock --export)\"', or " + CommandFailure.credentialWays

    private static func describe(_ query: Query) -> String {
        var parts: [String] = []
        if let service = query.service { parts.append("service \(quoted(service))") }
        if let account = query.account { parts.append("account \(quoted(account))") }
        if let group = query.group { parts.append("group \(quoted(group.name))") }
        if let label = query.label { parts.append("label \(quoted(label))") }
        if let accessibility = query.accessibility { parts.append("class \(quoted(accessibility.rawValue))") }
        return parts.isEmpty ? "the query" : parts.joined(separator: ", ")
    }
}
