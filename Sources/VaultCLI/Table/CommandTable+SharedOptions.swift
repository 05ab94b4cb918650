import VaultCore

// Options shared by several commands.
extension CommandTable {
    static func service(_ help: String) -> OptionSpec {
        OptionSpec(.service, short: "s", value: "SERVICE", help: help, completion: .service)
    }

    static func account(_ help: String) -> OptionSpec {
        OptionSpec(.account, short: "a", value: "ACCOUNT", help: help, completion: .account)
    }

    /// The item a command works on, named in one word instead of -s and -a.
    static let itemName = PositionalSpec(
        "SERVICE/ACCOUNT",
        help: "the item, instead of -s and -a: SERVICE/ACCOUNT or GROUP/SERVICE/ACCOUNT, with or without vault:// (as vault run reads it); "
            + "'/', '%', '?', '#' and spaces in a name are percent-encoded, e.g. %2F",
        optional: true, completion: .item)

    /// Commands that find items search one group only when one is named.
    static let searchGroupHelp = "only items of this access group; every group when none is named"

    static func group(_ help: String, default defaultValue: String? = nil) -> OptionSpec {
        OptionSpec(.group, value: "GROUP", help: help, default: defaultValue, completion: .group,
                   environment: .vaultGroup, configKey: .group)
    }

    static func label(_ help: String) -> OptionSpec {
        OptionSpec(.label, short: "l", value: "LABEL", help: help)
    }

    /// `--class`: the CLI names, or Apple's constant names.
    static func accessibility(_ help: String, default defaultValue: String? = nil) -> OptionSpec {
        OptionSpec(.class, value: "CLASS", help: help + "; Apple's kSecAttrAccessible names work too",
                   default: defaultValue, completion: .values(Accessibility.allCases.map(\.rawValue)),
                   aliases: Accessibility.allCases.map(\.appleConstant))
    }

    static let json = OptionSpec(.json, help: "print JSON instead of text")

    /// Globs over names, for list and wipe; -s and -a stay exact, since names may hold `*`.
    static let nameGlobs: [OptionSpec] = [
        OptionSpec(.serviceGlob, value: "GLOB", help: "only items whose service matches a shell glob, e.g. 'git:*'"),
        OptionSpec(.accountGlob, value: "GLOB", help: "only items whose account matches a shell glob, e.g. 'ci-*'"),
    ]

    /// --json on a command that changes something: its result as one JSON object.
    static let resultJSON = OptionSpec(.json, help: "print what was done as one JSON object on stdout instead of a message")

    static let otp = OptionSpec(
        .otp, help: "the secret is a one-time code secret (an otpauth:// URI or a Base32 seed), for 'vault otp'; it is checked before it is stored")

    static let kdfCost = OptionSpec(
        .kdfCost, value: "COST",
        help: "scrypt cost of the passphrase keyslot; testing is for tests only: it lowers the scrypt cost",
        default: "interactive", completion: .values(["interactive", "testing"]))

    /// Attributes that `add` sets and `update` changes (and `expires`).
    static let attributeOptions: [OptionSpec] = [
        label("label shown by list"),
        OptionSpec(.comment, short: "j", value: "COMMENT", help: "free-form comment"),
        OptionSpec(.kind, short: "D", value: "KIND", help: "kind of secret, e.g. \"api token\""),
        OptionSpec(.generic, short: "G", value: "DATA", help: "application data stored beside the secret"),
        OptionSpec(.envName, value: "NAME", help: "variable name for vault env; default: SERVICE_ACCOUNT upper-cased"),
    ]

    /// `--expires` of add, and of update, where `never` removes an expiry.
    static func expires(_ more: String = "") -> OptionSpec {
        OptionSpec(.expires, value: "WHEN",
                   help: "the item expires after a duration (90m, 30d) or at a date (2027-01-31, 2027-01-31T12:00Z)" + more)
    }

    /// Where the new secret comes from; without any of these it is read from
    /// stdin, or from a no-echo prompt on a terminal.
    /// The sealed fields beside the secret, set from files (add and update).
    static let sealedFieldFileOptions: [OptionSpec] = [
        OptionSpec(.notesFile, value: "FILE", help: "keep the text of FILE as the item's notes, beside the secret (get --field notes)",
                   completion: .file),
        OptionSpec(.otpFile, value: "FILE",
                   help: "keep the one-time code secret in FILE (an otpauth:// URI or a Base32 seed) beside the secret, for 'vault otp'; it is checked first",
                   completion: .file),
    ]

    /// Removing the sealed fields (update).
    static let sealedFieldClearOptions: [OptionSpec] = [
        OptionSpec(.clearNotes, help: "remove the item's notes"),
        OptionSpec(.clearOtp, help: "remove the one-time code secret kept beside the secret"),
    ]

    static let secretSourceOptions: [OptionSpec] = [
        OptionSpec(.secretFile, value: "FILE", help: "read the secret from FILE", completion: .file),
        OptionSpec(.generate, help: "generate a random secret: 32 letters and digits unless the options below say otherwise"),
        OptionSpec(.length, value: "N", help: "length of a generated secret", default: "32"),
        OptionSpec(.charset, value: "SET",
                   help: "characters of a generated secret: classes (alnum, alpha, digit, hex, lower, printable, symbol, upper) "
                       + "and literal characters in brackets, separated by commas, e.g. 'alnum,[-_.]'",
                   default: "alnum"),
        OptionSpec(.require, value: "CLASSES",
                   help: "a generated secret holds at least one character of each class named (upper, lower, digit, symbol), "
                       + "which is drawn from too, whatever --charset says"),
        OptionSpec(.noAmbiguous, help: "leave out the characters 0 O 1 l I | from a generated secret"),
        OptionSpec(.words, value: "N", help: "generate a passphrase of N words from the EFF large word list (7 776 words) instead"),
        OptionSpec(.separator, value: "TEXT", help: "what goes between the words of a passphrase", default: "-"),
        OptionSpec(.print, help: "show a generated secret once, on a terminal only"),
        OptionSpec(.password, short: "w", value: "VALUE",
                   help: "the secret itself; visible to other users in ps, prefer stdin"),
        OptionSpec(.trimNewline, help: "drop one trailing newline from the secret, as echo adds"),
        OptionSpec(.allowEmpty, help: "store an empty secret instead of refusing it"),
    ]
}
