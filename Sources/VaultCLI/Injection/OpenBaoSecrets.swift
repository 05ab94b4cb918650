import VaultCore
import VaultCrypto
import VaultOpenBao

/// Resolves a command's `openbao://` references: one login (when AppRole gives the token), then
/// one read per secret version however many fields and uses name it, and nothing else.
enum OpenBaoSecrets {
    /// A reference that cannot be resolved: where it was used, its line and the exit status it stands for.
    struct Problem {
        var use: ReferenceUse
        var reference: OpenBaoReference
        var error: OpenBaoError

        /// The line that lists it among others.
        var line: String { "\(use.origin): \(reference): \(error.message)" }
    }

    /// The value of every reference; a path the token may not read, a missing path or field is a
    /// problem of its use (all listed by the caller); what fails for every read (the server, the
    /// token, TLS, time) is thrown at once.
    static func resolve(_ uses: [(use: ReferenceUse, reference: OpenBaoReference)], _ invocation: Invocation)
        throws -> (secrets: [OpenBaoReference: SecretBytes], problems: [Problem])
    {
        guard !uses.isEmpty else { return ([:], []) }
        let access = OpenBaoAccess(invocation)
        let versionOne = access.kvVersion1Mounts
        // A KV v1 mount keeps no versions: a reference naming one is malformed before anything is read.
        if let (_, reference) = uses.first(where: { $0.reference.secret.version != nil && versionOne.contains($0.reference.secret.mount) })
        {
            throw UsageError(
                "\(reference) names a version, but BAO_KV1_MOUNTS names \(quoted(reference.secret.mount)) a KV v1 mount, which keeps no versions",
                hint: "drop ?version=N, or take \(quoted(reference.secret.mount)) out of BAO_KV1_MOUNTS if it is KV v2")
        }
        let client = try access.client()
        var read: [OpenBaoReference.SecretVersion: Result<[String: SecretBytes], OpenBaoError>] = [:]
        var secrets: [OpenBaoReference: SecretBytes] = [:]
        var problems: [Problem] = []
        for (use, reference) in uses {
            let secret = reference.secret
            if read[secret] == nil {
                do {
                    read[secret] = .success(try client.readSecret(mount: secret.mount, path: secret.path, version: secret.version))
                } catch OpenBaoError.permissionDenied(let path) {
                    read[secret] = .failure(.permissionDenied(path: path))
                } catch OpenBaoError.noSuchPath(let path, let version) {
                    read[secret] = .failure(.noSuchPath(path: path, version: version))
                } catch OpenBaoError.fieldNotText(let path, let field) where field != reference.field {
                    read[secret] = .failure(.fieldNotText(path: path, field: field))
                }
            }
            switch read[secret]! {
            case .success(let fields):
                if let value = fields[reference.field] {
                    secrets[reference] = value
                } else {
                    let error = OpenBaoError.noSuchField(
                        path: "\(secret.mount)/\(secret.path)", field: reference.field, known: Array(fields.keys))
                    problems.append(Problem(use: use, reference: reference, error: error))
                }
            case .failure(let error):
                problems.append(Problem(use: use, reference: reference, error: error))
            }
        }
        return (secrets, problems)
    }
}
