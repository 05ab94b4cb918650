import VaultCrypto

/// A pass (or gopass) entry once gpg has decrypted it: the first line is the secret; an
/// `otpauth://` line (pass-otp's) is the one-time code; every other line is kept in the notes.
/// Its path in the store names it (docs/IMPORT.md): the last part is the account and the part
/// before it the service (`github/alice` → `github`, `alice`; a top-level `github` → `github`,
/// no account); a deeper path keeps its first directory as the folder (`work/github/alice` →
/// folder `work`), which is the front of the service unless folders become groups.
package enum PassEntry {
    /// The entry at `path` (its parts, without ".gpg") with decrypted content `plaintext`.
    /// Throws `ImportProblem` for an entry whose first line is empty and that has no other
    /// (nothing to keep) or whose path is not UTF-8 text.
    package static func entry(path: [String], plaintext: SecretBytes) throws -> ImportEntry {
        let origin = ImportOrigin.named(path.joined(separator: "/"))
        precondition(!path.isEmpty, "a pass entry has a name")
        var lines = plaintext.withUnsafeBytes { bytes in
            bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
                SecretBytes(UnsafeRawBufferPointer(rebasing: line.last == 0x0D ? line.dropLast() : line))
            }
        }
        while lines.count > 1, lines.last?.count == 0 { lines.removeLast() }
        let secret = lines.removeFirst()
        var oneTimeCode: SecretBytes?
        // The other lines exactly as they are, blank ones included.
        var notes = SecretBytesBuilder(capacity: 256)
        var noteLines = 0
        for line in lines {
            if oneTimeCode == nil, line.withUnsafeBytes({ $0.starts(with: Array("otpauth://".utf8)) }) {
                oneTimeCode = line
                continue
            }
            if noteLines > 0 { notes.append("\n") }
            notes.append(line)
            noteLines += 1
        }
        let finished = notes.count > 0 ? notes.finish() : nil
        guard secret.count > 0 || finished != nil || oneTimeCode != nil else { throw ImportProblem(origin, .nothingToKeep) }
        let folders = path.count >= 3 ? [path[0]] : []
        let named = path.dropFirst(folders.count)
        return ImportEntry(
            origin: origin, folders: folders,
            service: named.count == 1 ? named.first! : named.dropLast().joined(separator: "/"),
            account: named.count == 1 ? "" : named.last!, secret: secret,
            fields: SealedFields(notes: finished, oneTimeCode: oneTimeCode))
    }
}
