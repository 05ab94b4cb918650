import VaultCore

/// `vault docker-credential store|get|erase|list` (also run as
/// `docker-credential-vault`): the docker-credential-helpers protocol over ordinary items.
enum DockerCredentialCommand {
    static let operations = ["store", "get", "erase", "list", "version"]

    static func run(_ arguments: CredentialHelperArguments, _ invocation: Invocation) throws {
        let terminal = invocation.terminal
        let operation = arguments.operation
        if operation == "version" {
            terminal.writeOut("docker-credential-vault (vault) \(CommandTable.version)\n")
            return
        }
        do {
            // list reads nothing: docker sends it no input, and stdin may be a terminal.
            let input = operation == "list" ? nil : try HelperInput.read(untilBlankLine: false)
            let options = ItemArguments(arguments.item, invocation)
            let items = DockerCredentialItems(
                store: try VaultAccess(invocation).store(), group: try options.group() ?? .default,
                accessibility: try options.accessibility())
            switch operation {
            case "store":
                try items.store(try input!.withUnsafeBytes { bytes in try DockerCredential.parse(bytes) })
            case "get":
                let url = try input!.withUnsafeBytes { bytes in try DockerCredential.serverURL(bytes) }
                try items.get(serverURL: url).json().withUnsafeBytes { terminal.writeOut($0) }
            case "erase":
                try items.erase(serverURL: try input!.withUnsafeBytes { bytes in try DockerCredential.serverURL(bytes) })
            default:
                terminal.writeOut(DockerCredentialItems.listJSON(try items.list()))
            }
        } catch {
            throw HelperReport.docker(error, on: terminal)
        }
    }
}
