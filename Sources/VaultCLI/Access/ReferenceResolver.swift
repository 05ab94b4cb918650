import FoundationEssentials
import VaultCore
import VaultCrypto

/// A secret reference and where it was written, for messages ("GITHUB_TOKEN",
/// "env.list:3", "template.yml:12").
struct ReferenceUse {
    var origin: String
    var text: String
}

/// Resolves the secret references of `run`, `env` and `inject` against the
/// store, all or nothing: every malformed or missing reference is listed in
/// one error before anything is run or written.
struct ReferenceResolver {
    let invocation: Invocation
    /// --group as given: the group of references that name none.
    let group: String?

    init(_ invocation: Invocation, group: String?) {
        self.invocation = invocation
        self.group = group
    }

    /// The secret of every reference, by reference; throws a usage error
    /// listing every malformed one, then an item-not-found error listing every
    /// missing one. A locked vault or a wrong credential fails at once.
    func resolve(_ uses: [ReferenceUse], action: String) throws -> [SourceReference: SecretBytes] {
        var sealedFields: [SecretBytes] = []
        return try resolve(uses, action: action, sealedFields: &sealedFields)
    }

    /// `resolve(_:action:)`, adding to `sealedFields` the values of the referenced items' sealed
    /// fields (`Item.secretValues` but the secret): `run` masks them with the secrets.
    func resolve(_ uses: [ReferenceUse], action: String, sealedFields: inout [SecretBytes]) throws -> [SourceReference: SecretBytes] {
        var parsed: [(use: ReferenceUse, reference: SecretReference)] = []
        var remote: [(use: ReferenceUse, reference: OpenBaoReference)] = []
        var malformed: [String] = []
        for use in uses {
            do {
                switch try SourceReference(parsing: use.text) {
                case .vault(let reference): parsed.append((use, reference))
                case .openbao(let reference): remote.append((use, reference))
                }
            } catch {
                malformed.append("\(use.origin): \(ItemOutput.printable(use.text)): \(error.problem)")
            }
        }
        if !malformed.isEmpty {
            throw CommandFailure(
                .usage, "\(counted(malformed.count, "secret reference")) cannot be read; \(action)",
                details: malformed, hint: SecretReferenceError.syntaxHint)
        }
        // The server first: a vault that is not needed is not opened, and one that is asks nothing
        // (no prompt) before the server has answered.
        let (remoteSecrets, remoteProblems) = try OpenBaoSecrets.resolve(remote, invocation)
        var secrets: [SourceReference: SecretBytes] = [:]
        for (reference, secret) in remoteSecrets { secrets[.openbao(reference)] = secret }
        var missing = remoteProblems.map(\.line)
        var firstStatus = remoteProblems.first?.error.status
        if !parsed.isEmpty {
            try resolveItems(parsed, into: &secrets, sealedFields: &sealedFields, missing: &missing, firstStatus: &firstStatus)
        }
        if let status = firstStatus {
            throw CommandFailure(
                status, "\(counted(missing.count, "secret reference")) cannot be resolved; \(action)",
                details: missing,
                hint: parsed.isEmpty
                    ? "fix the references, or the token's policies ('bao kv get' shows what the server says)"
                    : "add the missing items with 'vault add', or fix the references ('vault list' shows what exists)")
        }
        return secrets
    }

    /// The secrets of the `vault://` references, from one reading of the vault.
    private func resolveItems(
        _ parsed: [(use: ReferenceUse, reference: SecretReference)], into secrets: inout [SourceReference: SecretBytes],
        sealedFields: inout [SecretBytes], missing: inout [String], firstStatus: inout Status?
    ) throws {
        let defaultGroup = try ItemArguments(ItemSelection(group: group), invocation).group()
        let store = try VaultAccess(invocation).store()
        var firstUses: [(use: ReferenceUse, reference: SecretReference)] = []
        var seen = Set<SecretReference>()
        for entry in parsed where seen.insert(entry.reference).inserted { firstUses.append(entry) }
        // Secrets in one pass over the file; one-time codes (computed now) one by one.
        let secretUses = firstUses.filter { $0.reference.part == .secret }
        let items = try store.items(for: secretUses.map { $0.reference.query(defaultGroup: defaultGroup) })
        for case .success(let item) in items { sealedFields += item.secretValues.dropFirst() }
        var results = items.map { $0.map(\.secret) }
        for (_, reference) in firstUses where reference.part == .oneTimeCode {
            results.append(
                try VaultError.result { try oneTimeCode(of: reference, query: reference.query(defaultGroup: defaultGroup), in: store) })
        }
        let ordered = secretUses + firstUses.filter { $0.reference.part == .oneTimeCode }
        for ((use, reference), result) in zip(ordered, results) {
            switch result {
            case .success(let secret):
                secrets[.vault(reference)] = secret
            case .failure(.item(.ambiguous(let candidates))):
                let groups = candidates.map { quoted($0.group.name) }.joined(separator: ", ")
                missing.append("\(use.origin): \(reference): in several groups (\(groups)); name one, e.g. vault://GROUP/…")
                firstStatus = firstStatus ?? .usage
            case .failure(.item(.noSuchGroup(let group, let known))):
                let near = Suggestion.closest(to: group.name, among: known.map(\.name)).map { "; did you mean \(quoted($0))?" } ?? ""
                missing.append("\(use.origin): \(reference): there is no group \(quoted(group.name))\(near)")
                firstStatus = firstStatus ?? .itemNotFound
            case .failure:
                let near = NearNames.referenceHint(for: reference, query: reference.query(defaultGroup: defaultGroup), in: store)
                missing.append("\(use.origin): \(reference): no such item\(near)")
                firstStatus = firstStatus ?? .itemNotFound
            }
        }
    }

    /// The one-time code of the reference's item, now.
    private func oneTimeCode(of reference: SecretReference, query: Query, in store: ItemStore) throws -> SecretBytes {
        let now = Int64(invocation.now.timeIntervalSince1970)
        let code = try OneTimeCodeInput.reading(query) { try store.oneTimeCode(matching: query, atUnixTime: now) }
        return SecretBytes(Array(code.utf8))
    }
}
