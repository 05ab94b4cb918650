// SecretBytes (every secret) and Scrypt.Parameters (`Vault.create`'s cost)
// are VaultCrypto's and appear in VaultCore's API: a client that imports
// VaultCore, the one library product, sees them without a second import.
@_exported import VaultCrypto
