import VaultCrypto

/// What kubectl (client-go) tells an exec credential plugin in KUBERNETES_EXEC_INFO: the API
/// version it wants back, the cluster's server URL (sent with `provideClusterInfo: true`), and
/// whether the plugin may interact (`spec.interactive`, false under `interactiveMode: Never`).
struct KubeExecInfo {
    static let variable = EnvironmentVariable.kubernetesExecInfo.name
    static let apiVersions = ["client.authentication.k8s.io/v1", "client.authentication.k8s.io/v1beta1"]
    static let hint = "run vault kube-credential from a kubeconfig user's exec section with provideClusterInfo: true (docs/INTEGRATIONS.md)"

    let apiVersion: String
    let server: String
    let interactive: Bool

    /// Reads and checks the variable.
    ///
    /// - Throws: `UsageError` when it is unset, not JSON, of another API version, or names no server.
    init(_ invocation: Invocation) throws {
        guard let text = invocation.environment[KubeExecInfo.variable], !text.isEmpty else {
            throw UsageError(
                "\(KubeExecInfo.variable) is not set: kubectl sets it when it runs a credential plugin", hint: KubeExecInfo.hint)
        }
        let source = KubeExecInfo.variable
        let info = try HelperJSON.parse(SecretBytes(Array(text.utf8)), source: source, hint: KubeExecInfo.hint)
        guard let version = try HelperJSON.text(info, "apiVersion", in: source, hint: KubeExecInfo.hint),
            KubeExecInfo.apiVersions.contains(version)
        else {
            throw UsageError(
                "\(source) asks for an API version vault does not speak",
                hint: "use apiVersion: \(KubeExecInfo.apiVersions[0]) in the kubeconfig's exec section")
        }
        let spec = info["spec"] ?? .null
        guard let server = try HelperJSON.text(spec["cluster"] ?? .null, "server", in: source, hint: KubeExecInfo.hint) else {
            throw UsageError(
                "kubectl sent no cluster server in \(source)",
                hint: "set provideClusterInfo: true in the kubeconfig user's exec section")
        }
        apiVersion = version
        self.server = server
        if case .bool(true)? = spec["interactive"] { interactive = true } else { interactive = false }
    }
}
