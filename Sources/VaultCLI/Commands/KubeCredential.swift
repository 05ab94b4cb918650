import VaultCore

/// `vault kube-credential`: kubectl's exec credential plugin, printing the item of service
/// `kube:SERVER` (the server kubectl names in KUBERNETES_EXEC_INFO) as an `ExecCredential`.
/// It prompts only when kubectl says it may (`interactiveMode` IfAvailable or Always, with a terminal).
enum KubeCredentialCommand {
    static func run(_ arguments: KubeCredentialArguments, _ invocation: Invocation) throws {
        let terminal = invocation.terminal
        do {
            let info = try KubeExecInfo(invocation)
            let items = try ServiceCredentialItems(
                arguments.item, invocation, kind: KubeExecCredential.kind,
                promptsForbiddenBy: info.interactive ? nil : "kubectl runs the plugin with interactive false")
            let item = try items.get(service: KubeExecCredential.servicePrefix + info.server)
            try KubeExecCredential.output(item, apiVersion: info.apiVersion).withUnsafeBytes { terminal.writeOut($0) }
        } catch {
            throw HelperReport.tool(error, on: terminal)
        }
    }
}

/// The arguments of `kube-credential`: the group its items are in.
struct KubeCredentialArguments: CommandArguments {
    static let options = [CredentialHelperArguments.group]

    var item: ItemSelection

    init(_ options: OptionReader) {
        item = ItemSelection(group: options.value(ItemSelection.group))
    }
}
