import VaultCore

/// `vault aws-credential PROFILE`: an AWS SDK's `credential_process`, printing the item of service
/// `aws:PROFILE` as the process JSON. It never prompts: the SDK gives it no terminal to answer on.
enum AWSCredentialCommand {
    static func run(_ arguments: AWSCredentialArguments, _ invocation: Invocation) throws {
        let terminal = invocation.terminal
        do {
            let items = try ServiceCredentialItems(
                arguments.item, invocation, kind: AWSProcessCredential.kind,
                promptsForbiddenBy: "an AWS credential_process never prompts")
            let item = try items.get(service: AWSProcessCredential.servicePrefix + arguments.profile)
            try AWSProcessCredential.output(item).withUnsafeBytes { terminal.writeOut($0) }
        } catch {
            throw HelperReport.tool(error, on: terminal)
        }
    }
}

/// The arguments of `aws-credential`: the profile, and the group its item is in.
struct AWSCredentialArguments: CommandArguments {
    static let options = [CredentialHelperArguments.group]

    var profile: String
    var item: ItemSelection

    init(_ options: OptionReader) {
        profile = options.positionals.first ?? ""
        item = ItemSelection(group: options.value(ItemSelection.group))
    }
}
