import FoundationEssentials
import VaultCore

extension Invocation {
    /// The time now, from the host's clock (which VAULT_TEST_NOW fixes in tests).
    var now: Date { HostContext.live(environment: environment).now() }
}
