import FoundationEssentials
import VaultCore
import VaultCrypto

/// What an AWS SDK reads from a `credential_process`: made from the item of service `aws:PROFILE`,
/// whose secret is the process output less its version and expiry,
/// `{"AccessKeyId":…,"SecretAccessKey":…}` with an optional `"SessionToken"`.
enum AWSProcessCredential {
    static let servicePrefix = "aws:"
    static let kind = "aws credentials"
    static let secretHint =
        #"store {"AccessKeyId":"…","SecretAccessKey":"…"} (and "SessionToken" when there is one) as its secret; set an expiry with --expires"#

    /// The output: `{"Version":1,"AccessKeyId":…,"SecretAccessKey":…[,"SessionToken":…][,"Expiration":…]}`,
    /// with `Expiration` only when the item has an expiry (the SDK then runs vault again before it).
    ///
    /// - Throws: `UsageError` when the secret is not that JSON object.
    static func output(_ item: Item) throws -> SecretBytes {
        let source = "the secret of \(quoted(item.attributes.service))"
        let object = try HelperJSON.parse(item.secret, source: source, hint: secretHint)
        guard case .object = object else { throw UsageError("\(source) is not a JSON object", hint: secretHint) }
        if object["Expiration"] != nil {
            throw UsageError("\(source) holds an Expiration", hint: "remove it and give the item the expiry: vault update --expires DATE")
        }
        var members = [HelperJSON.plain("\"Version\":1")]
        for (key, required) in [("AccessKeyId", true), ("SecretAccessKey", true), ("SessionToken", false)] {
            switch object[key] {
            case .string(let value)? where value.count > 0:
                members.append(try HelperJSON.secretMember(key, value))
            case nil, .null?, .string?:
                if required { throw UsageError("\(source) has no \(key)", hint: secretHint) }
            default:
                throw UsageError("\(key) in \(source) is not a string", hint: secretHint)
            }
        }
        if let expires = item.attributes.details.expires {
            members.append(HelperJSON.plain("\"Expiration\":\"\(DateText.iso(expires))\""))
        }
        return HelperJSON.plain("{").appending(HelperJSON.joined(members)).appending(HelperJSON.plain("}\n"))
    }
}
