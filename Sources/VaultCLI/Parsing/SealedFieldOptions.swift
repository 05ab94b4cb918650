import VaultCore
import VaultCrypto

/// --notes-file and --otp-file (add and update), --clear-notes and --clear-otp (update): the
/// sealed fields beside the secret, which the importers fill, set or removed from the command line.
struct SealedFieldOptions: Sendable {
    var notesFile: String?
    var otpFile: String?
    var clearNotes = false
    var clearOneTimeCode = false

    /// Reads the file options, and the clear flags when the command declares them (`clears`).
    init(_ options: OptionReader, clears: Bool) {
        notesFile = options.value(Self.notesFile)
        otpFile = options.value(Self.otpFile)
        if clears {
            clearNotes = options.flag(Self.clearNotes)
            clearOneTimeCode = options.flag(Self.clearOtp)
        }
    }

    /// Whether any field is set or removed.
    var changesFields: Bool { notesFile != nil || otpFile != nil || clearNotes || clearOneTimeCode }

    /// A field both set and removed is a usage error.
    func validate() throws {
        if notesFile != nil, clearNotes { throw UsageError("--notes-file and --clear-notes were both given", hint: "drop one of them") }
        if otpFile != nil, clearOneTimeCode { throw UsageError("--otp-file and --clear-otp were both given", hint: "drop one of them") }
    }

    /// The fields to set, read from their files (a one-time code secret checked first, less one
    /// trailing newline), and those to remove, as empty values.
    func read() throws -> [SealedField: SecretBytes] {
        var fields: [SealedField: SecretBytes] = [:]
        if let notesFile { fields[.notes] = try SecretFile.read(path: notesFile, limit: ItemLimits.maxSecretBytes) }
        if let otpFile {
            let code = try SecretFile.read(path: otpFile, limit: ItemLimits.maxSecretBytes).withUnsafeBytes { bytes in
                SecretBytes(bytes.last == 0x0A ? UnsafeRawBufferPointer(rebasing: bytes.dropLast()) : bytes)
            }
            try OneTimeCodeInput.validate(code)
            fields[.oneTimeCode] = code
        }
        if clearNotes { fields[.notes] = SecretBytes(count: 0) }
        if clearOneTimeCode { fields[.oneTimeCode] = SecretBytes(count: 0) }
        return fields
    }
}

// The sealed fields' options, declared once.
extension SealedFieldOptions {
    static let notesFile = OptionSpec(
        "notes-file", value: "FILE", help: "keep the text of FILE as the item's notes, beside the secret (get --field notes)",
        completion: .file)
    static let otpFile = OptionSpec(
        "otp-file", value: "FILE",
        help:
            "keep the one-time code secret in FILE (an otpauth:// URI or a Base32 seed) beside the secret, for 'vault otp'; it is checked first",
        completion: .file)
    static let clearNotes = OptionSpec("clear-notes", help: "remove the item's notes")
    static let clearOtp = OptionSpec("clear-otp", help: "remove the one-time code secret kept beside the secret")

    /// The sealed fields beside the secret, set from files (add and update).
    static let fileOptions = [notesFile, otpFile]
    /// Removing the sealed fields (update).
    static let clearOptions = [clearNotes, clearOtp]
}
