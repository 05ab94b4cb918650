import VaultCore
import VaultCrypto

/// `vault terraform-credential get|store|forget HOST` (also run as `terraform-credentials-vault`,
/// from a Terraform plugin directory): Terraform's credentials helper protocol over the item of
/// service `terraform:HOST`. `get` prints `{"token":…}`, or `{}` when none is stored; `store`
/// reads `{"token":…}`; `forget` removes it (none is no error).
enum TerraformCredentialCommand {
    static let operations = ["get", "store", "forget"]
    static let servicePrefix = "terraform:"
    static let kind = "terraform token"
    static let storeHint = #"send {"token":"…"} on stdin"#

    static func run(_ arguments: TerraformCredentialArguments, _ invocation: Invocation) throws {
        let terminal = invocation.terminal
        do {
            let service = servicePrefix + (try host(arguments.host))
            // store reads its input first: a bad one changes nothing and opens no vault.
            let token = arguments.operation == "store" ? try storedToken(try HelperInput.read(untilBlankLine: false)) : nil
            let items = try ServiceCredentialItems(arguments.item, invocation, kind: kind)
            switch arguments.operation {
            case "get":
                let reply: SecretBytes
                do {
                    let item = try items.get(service: service)
                    reply = HelperJSON.plain("{").appending(
                        try HelperJSON.secretMember("token", try ServiceCredentialItems.token(of: item))
                    ).appending(HelperJSON.plain("}"))
                } catch VaultError.item(.itemNotFound) {
                    reply = HelperJSON.plain("{}")
                }
                reply.appending(HelperJSON.plain("\n")).withUnsafeBytes { terminal.writeOut($0) }
            case "store":
                try items.put(service: service, account: "", secret: token!)
            default:
                try items.erase(service: service)
            }
        } catch {
            throw HelperReport.tool(error, on: terminal)
        }
    }

    /// The host as Terraform sends it: one word of text.
    private static func host(_ text: String) throws -> String {
        guard !text.isEmpty, !text.contains(where: { $0.isWhitespace || $0 == "\0" || $0 == "/" }) else {
            throw UsageError("\(quoted(text)) is not a host name", hint: "give the host as Terraform does, e.g. app.terraform.io")
        }
        return text
    }

    /// The token in store's input, a JSON object with a string member `token`.
    private static func storedToken(_ input: SecretBytes) throws -> SecretBytes {
        let object = try HelperJSON.parse(input, source: "the input", hint: storeHint)
        guard case .object = object else { throw UsageError("the input is not a JSON object", hint: storeHint) }
        guard case .string(let token)? = object["token"], token.count > 0 else {
            throw UsageError("the input has no token", hint: storeHint)
        }
        return token
    }
}

/// The arguments of `terraform-credential`: the operation, the host, and the group and class of its items.
struct TerraformCredentialArguments: CommandArguments {
    static let options = CredentialHelperArguments.options

    var operation: String
    var host: String
    var item: ItemSelection

    init(_ options: OptionReader) {
        operation = options.positionals.first ?? ""
        host = options.positionals.dropFirst().first ?? ""
        item = ItemSelection(group: options.value(ItemSelection.group), accessibility: options.value(ItemSelection.accessibility))
    }
}
