import FoundationEssentials
import VaultCrypto

#if canImport(Glibc)
import Glibc
#endif

// What an item may hold, checked before any write.
extension Vault {
    static func single(_ positions: [Int], in vault: some OpenVault, query: Query) throws -> Int {
        guard let first = positions.first else {
            try vault.requireExisting(query.group)
            throw VaultError.itemNotFound(query)
        }
        guard positions.count == 1 else {
            throw VaultError.ambiguous(try positions.map { try vault.openAttributes(at: $0) })
        }
        return first
    }

    /// Refuses an item that no backend stores: an empty service, an attribute or secret over the limits.
    public static func validate(_ new: NewItem) throws {
        guard !new.service.isEmpty else { throw VaultError.invalidValue(.emptyService) }
        try validateAttribute("service", new.service)
        try validateAttribute("account", new.account)
        try validate(new.details)
        try validateSecretSize(new.secret.count + new.fields.byteCount)
    }

    /// Refuses attributes over the size limit.
    public static func validate(_ details: ItemDetails) throws {
        for field in details.textFields {
            if let value = field.value { try validateAttribute(field.name, value) }
        }
    }

    static func validateAttribute(_ field: String, _ value: String) throws {
        let size = value.utf8.count
        guard size > ItemLimits.maxAttributeBytes else { return }
        throw VaultError.invalidValue(.attributeTooLarge(name: field, size: size, limit: ItemLimits.maxAttributeBytes))
    }

    /// Refuses a secret over 1 MiB.
    public static func validateSecret(_ secret: SecretBytes) throws {
        try validateSecretSize(secret.count)
    }

    /// Refuses a secret of `byteCount` bytes when it is over `ItemLimits.maxSecretBytes`
    /// (for a reader that stopped keeping bytes past the limit but counted them).
    public static func validateSecretSize(_ byteCount: Int) throws {
        guard byteCount > ItemLimits.maxSecretBytes else { return }
        throw VaultError.invalidValue(.secretTooLarge(size: byteCount, limit: ItemLimits.maxSecretBytes))
    }
}
