// vault-bench-fill VAULT KEY_FILE COUNT: adds COUNT items (service
// "bench-000000"…, account "bench", a 32-byte secret) to an existing vault
// that KEY_FILE opens, in one transaction through Vault.addAll. Used by
// bench/run.sh to build large vaults quickly; not installed.
// vault-bench-fill history …: a history of many commits (History.swift).
import VaultCore
import VaultCrypto

#if canImport(Glibc)
import Glibc
#endif

/// Writes `message` to stderr and exits with `code`.
func fail(_ message: String, _ code: Int32) -> Never {
    let bytes = Array(message.utf8)
    _ = write(STDERR_FILENO, bytes, bytes.count)
    exit(code)
}

let arguments = CommandLine.arguments
if arguments.count > 1, arguments[1] == "history" {
    guard let plan = HistoryPlan(Array(arguments.dropFirst(2))) else { fail(HistoryPlan.usage, 2) }
    do {
        try writeHistory(plan)
    } catch {
        fail("vault-bench-fill history: error: \(error)\n", 1)
    }
    exit(0)
}
guard arguments.count == 4, let count = Int(arguments[3]), count >= 0 else {
    fail("usage: vault-bench-fill VAULT KEY_FILE COUNT\n", 2)
}
do {
    let vault = Vault(location: VaultLocation(path: arguments[1]), credential: .keyFile(try KeyFile.read(path: arguments[2])))
    let secretAlphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
    let items = (0..<count).map { number in
        NewItem(
            service: "bench-" + String(repeating: "0", count: max(0, 6 - String(number).count)) + String(number),
            account: "bench", details: ItemDetails(label: "bench item \(number)"),
            secret: RandomSecret.generate(length: 32, alphabet: secretAlphabet))
    }
    try vault.addAll(items)
} catch {
    fail("vault-bench-fill: error: \(error)\n", 1)
}
