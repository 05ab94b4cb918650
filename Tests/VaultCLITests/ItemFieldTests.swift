import FoundationEssentials
import Testing
import VaultCore
@testable import VaultCLI

/// `get --field` reaches every attribute `get --json` shows.
@Suite struct ItemFieldTests {
    @Test func everyJSONKeyIsAField() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let details = ItemDetails(label: "l", comment: "c", kind: "k", generic: "g", envName: "E", expires: now.addingTimeInterval(60))
        let attributes = ItemAttributes(service: "s", account: "a", details: details, created: now, modified: now)
        let json = ItemOutput.json(attributes, now: now)
        // Keys are the quoted words before a colon: {"service":"s","account":"a",…}
        let keys = json.split(separator: ",").compactMap { pair -> String? in
            let trimmed = pair.drop { $0 == "{" }
            guard trimmed.first == "\"", let end = trimmed.dropFirst().firstIndex(of: "\"") else { return nil }
            return String(trimmed[trimmed.index(after: trimmed.startIndex)..<end])
        }
        #expect(keys.count >= 13, "\(json)")
        for key in keys {
            #expect(ItemField(rawValue: key) != nil, "get --json shows \(key), and --field does not take it")
        }
    }
}
