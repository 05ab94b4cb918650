import VaultCore
import VaultCrypto

/// The credentials of the helpers whose protocol names a service but no user (kubectl, the AWS
/// SDKs, cargo, Terraform), over the ordinary items of one access group: the one item of service
/// `PREFIX:NAME` (`aws:PROFILE`, `kube:SERVER`, `cargo:INDEX-URL`, `terraform:HOST`), any account.
/// Two or more such items are an error that names them (`ambiguous`, exit 2), never a silent pick.
struct ServiceCredentialItems {
    let store: ItemStore
    let group: AccessGroup
    /// The class of new items; a replaced item keeps its own when nil.
    let accessibility: Accessibility?
    /// The kind new items get, e.g. "cargo token".
    let kind: String

    /// The one item of `service`, with its secret and expiry.
    ///
    /// - Throws: `itemNotFound` (also when the group does not exist yet), `ambiguous`, `itemExpired`,
    ///   and what opening the vault throws (locked, missing entitlement, …).
    func get(service: String) throws -> Item {
        do {
            return try store.item(matching: Query(service: service, group: group))
        } catch VaultError.item(.noSuchGroup) {
            throw VaultError.itemNotFound(Query(service: service, group: group))
        }
    }

    /// Stores `secret` as the one item of `service`, account `account`; other accounts' items of the
    /// service are removed. An unchanged credential is not written again.
    func put(service: String, account: String, secret: SecretBytes) throws {
        let existing = try store.helperItems(matching: Query(service: service, group: group))
        let same = existing.first { $0.account == account }
        var details = same?.details ?? ItemDetails()
        details.kind = details.kind ?? kind
        let item = NewItem(
            service: service, account: account, group: group,
            accessibility: accessibility ?? same?.accessibility ?? .default, details: details, secret: secret)
        if let same, existing.count == 1, try store.holds(item, as: same) { return }
        _ = try store.add(item, replaceExisting: true)
        for other in existing where other.account != account {
            _ = try store.delete(matching: Query(service: service, account: other.account, group: group), allMatching: false)
        }
    }

    /// Removes every item of `service`; returns how many there were.
    @discardableResult
    func erase(service: String) throws -> Int {
        guard try !store.helperItems(matching: Query(service: service, group: group)).isEmpty else { return 0 }
        return try store.delete(matching: Query(service: service, group: group), allMatching: true).count
    }
}

extension ServiceCredentialItems {
    /// The items of the group `selection` names (--group, VAULT_GROUP, the config, else `default`), in
    /// the vault the invocation names; `promptsForbiddenBy` says why vault may not prompt, when its caller forbids it.
    init(_ selection: ItemSelection, _ invocation: Invocation, kind: String, promptsForbiddenBy: String? = nil) throws {
        let options = ItemArguments(selection, invocation)
        var access = VaultAccess(invocation)
        access.promptsForbiddenByCaller = promptsForbiddenBy
        self.init(
            store: try access.store(), group: try options.group() ?? .default,
            accessibility: try options.accessibility(), kind: kind)
    }
}

extension ServiceCredentialItems {
    /// The item's secret less one final line break, as a token must be: one line, not empty.
    ///
    /// - Throws: `UsageError` saying the secret is `what` when it is not one line.
    static func token(of item: Item, what: String = "not a one-line token", hint: String = "store the token alone as the secret") throws
        -> SecretBytes
    {
        try item.secret.withUnsafeBytes { bytes in
            var end = bytes.count
            if end > 0, bytes[end - 1] == 0x0A { end -= 1 }
            if end > 0, bytes[end - 1] == 0x0D { end -= 1 }
            let token = UnsafeRawBufferPointer(rebasing: bytes[0..<end])
            guard !token.isEmpty, !token.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0 }) else {
                throw UsageError("the secret of \(quoted(item.attributes.service)) is \(what)", hint: hint)
            }
            return SecretBytes(token)
        }
    }
}
