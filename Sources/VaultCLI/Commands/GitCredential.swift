import VaultCore

/// `vault git-credential get|store|erase` (also run as `git-credential-vault`):
/// git's credential helper protocol over ordinary items.
enum GitCredentialCommand {
    static let operations = ["get", "store", "erase"]

    static func run(_ arguments: CredentialHelperArguments, _ invocation: Invocation) throws {
        let terminal = invocation.terminal
        do {
            let input = try HelperInput.read(untilBlankLine: true)
            let request = try input.withUnsafeBytes { bytes in try GitCredentialMessage.parse(bytes) }.resolvingURL()
            let options = ItemArguments(arguments.item, invocation)
            let items = GitCredentialItems(
                store: try VaultAccess(invocation).store(), group: try options.group() ?? .default,
                accessibility: try options.accessibility())
            switch arguments.operation {
            case "get":
                if let reply = try items.get(request) {
                    reply.serialized().withUnsafeBytes { terminal.writeOut($0) }
                }
            case "store":
                try items.store(request)
            default:
                try items.erase(request)
            }
        } catch {
            throw HelperReport.git(error, on: terminal)
        }
    }
}
