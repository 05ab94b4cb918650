import VaultCore
import VaultCrypto

/// What `scan` finds and `redact` conceals, by name: an item of the vault, or the value of a
/// `--ref` reference (an `openbao://` secret's field, or a `vault://` item's secret).
enum LeakSubject {
    case item(ItemKey)
    case reference(SourceReference)

    /// How scan and its baseline name it: a reference, never the secret.
    var name: String {
        switch self {
        case .item(let key): return ItemName.of(key)
        case .reference(let reference): return reference.description
        }
    }
}

/// The values of `--ref` references, all fetched before anything is searched or read from stdin:
/// each OpenBao path read once however many fields name it, all or nothing (a reference that
/// cannot be read or resolved fails the command, as it would fail `vault run`).
enum ReferencedSecrets {
    /// The value of each distinct reference in `texts`, in the order given; `action` ends the error
    /// line when one cannot be resolved ("nothing was searched").
    static func resolve(_ texts: [String], _ invocation: Invocation, action: String) throws -> [(subject: LeakSubject, secret: SecretBytes)]
    {
        guard !texts.isEmpty else { return [] }
        let uses = texts.map { ReferenceUse(origin: "--ref", text: $0) }
        let secrets = try ReferenceResolver(invocation, group: nil).resolve(uses, action: action)
        var seen = Set<SourceReference>()
        var values: [(subject: LeakSubject, secret: SecretBytes)] = []
        for use in uses {
            // Every text parsed and resolved above, or the resolver threw.
            guard let reference = try? SourceReference(parsing: use.text), seen.insert(reference).inserted,
                let secret = secrets[reference]
            else { continue }
            values.append((.reference(reference), secret))
        }
        return values
    }
}
