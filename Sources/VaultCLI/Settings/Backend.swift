import VaultCore
import VaultSecretService

/// Where items live: the vault file, or the desktop keyring through libsecret.
enum Backend: String, CaseIterable {
    case file
    case secretService = "secret-service"
}

extension VaultAccess {
    /// --backend, else VAULT_BACKEND, else `backend` in the config file, else the file.
    func backend() throws -> Backend {
        guard let name = try Settings(invocation).value(GlobalOptions.backend.name) else { return .file }
        guard let backend = Backend(rawValue: name) else {
            throw UsageError(
                "unknown backend \(quoted(name))",
                hint: "use one of: \(Backend.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return backend
    }

    /// --collection, else VAULT_COLLECTION, else `default`; nil when neither names one.
    private var namedCollection: String? {
        // An empty --collection is named (and refused below); an empty VAULT_COLLECTION is not.
        if let given = invocation.arguments.value(GlobalOptions.collection.name) { return given }
        return try? Settings(invocation).fromEnvironmentOrConfig(GlobalOptions.collection.name)
    }

    /// The keyring collection the secret-service backend works on.
    func secretServiceStore() throws -> SecretServiceStore {
        let name = namedCollection ?? SecretServiceStore.defaultCollection
        guard !name.isEmpty else {
            throw UsageError("the collection name is empty", hint: "give --collection default, session or a collection's name")
        }
        return try SecretServiceStore(
            collection: name, environment: invocation.environment, reasonPromptsAreOff: reasonPromptsAreOff,
            host: HostContext.live(environment: invocation.environment))
    }

    /// Refuses the secret-service backend (and --collection) for what only the vault file has.
    func requireFileBackend() throws {
        if try backend() == .secretService {
            throw UsageError(
                "\(quoted(invocation.arguments.command.name)) works on the vault file, and the backend is secret-service",
                hint: "run it without --backend secret-service (and VAULT_BACKEND or backend in the config)")
        }
        if invocation.arguments.value(GlobalOptions.collection.name) != nil {
            throw UsageError("--collection goes with --backend secret-service", hint: "add --backend secret-service, or drop --collection")
        }
    }
}
