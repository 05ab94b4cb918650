import VaultCore

/// The words for what an import found wrong.
enum ImportWords {
    static func problem(_ reason: ImportProblem.Reason) -> String {
        switch reason {
        case .unterminatedQuote: return "a quoted field that never ends"
        case .textAfterQuote: return "text after a quoted field's closing quote"
        case .fieldCount(let expected, let found): return "\(counted(found, "field")), where the header has \(expected)"
        case .missingColumn(let name): return "the header has no column \(quoted(name))"
        case .badMapping(let text):
            return
                "\(quoted(text)) is not ROLE=COLUMN with a role of \(ColumnMapping.Role.allCases.map(\.rawValue).joined(separator: ", ")) (service and secret required)"
        case .notText: return "a name that is not UTF-8 text"
        case .malformedJSON(let fault, let offset):
            return "not the JSON this format needs: \(words(fault))\(offset.map { " at byte \($0)" } ?? "")"
        case .encryptedExport:
            return "an encrypted export; export the vault again as unencrypted JSON (\"File > Export vault\", format .json)"
        case .noName: return "no name to make a service of"
        case .nothingToKeep: return "neither a password nor a note"
        case .unsupportedKind(let kind): return "a \(kind); vault imports logins and notes"
        case .sameNameAs(let first): return "the same name as \(origin(first)); rename one of them in the source"
        case .undecryptable(let why): return "cannot be decrypted: \(why)"
        case .tooLarge(let bytes, let limit): return "\(bytes) bytes, more than the \(limit >> 20) MiB an import reads"
        case .notAFile(let kind): return "\(words(kind)), not a file: pass reads files only, and vault follows no link"
        case .hiddenName: return "a name that begins with a dot, which pass does not list"
        }
    }
}

extension ImportWords {
    /// What a format's entries carry that no item keeps, said after every import from it (never
    /// dropped silently); nil when everything is kept.
    static func notKept(_ format: ImportFormat) -> String? {
        switch format {
        case .bitwardenJSON: return "Bitwarden's favorite and re-prompt flags, password history, collections and attachments"
        case .onePasswordCSV: return "1Password's Favorite column"
        default: return nil
        }
    }

    /// Where in the export: "line 12", "item 3 (GitHub)", a pass path.
    static func origin(_ origin: ImportOrigin) -> String {
        switch origin {
        case .line(let number): return "line \(number)"
        case .columnMapping: return "the column mapping"
        case .item(let number, let name): return "item \(number)" + (name.map { " (\($0))" } ?? "")
        case .named(let name): return name
        }
    }

    /// What a password store holds in an entry's place.
    static func words(_ kind: ImportProblem.FileKind) -> String {
        switch kind {
        case .symbolicLink: return "a symbolic link"
        case .fifo: return "a named pipe"
        case .socket: return "a socket"
        case .device: return "a device"
        }
    }

    /// What is wrong with JSON, before "at byte N".
    static func words(_ fault: JSONFault) -> String {
        switch fault {
        case .textAfterEnd: return "text after the end"
        case .unexpectedCharacter: return "an unexpected character"
        case .tooDeep: return "nesting deeper than 64"
        case .unexpectedEnd: return "the end of the file"
        case .keyNotString: return "a key that is not a string"
        case .keyNotUTF8: return "a key that is not UTF-8"
        case .unterminatedString: return "a string that never ends"
        case .controlCharacter: return "a control character in a string"
        case .loneSurrogate: return "a lone surrogate"
        case .unknownEscape: return "an unknown escape"
        case .badUnicodeEscape: return "a \\u escape without four hex digits"
        case .noItemsArray: return "no \"items\" array"
        }
    }
}
