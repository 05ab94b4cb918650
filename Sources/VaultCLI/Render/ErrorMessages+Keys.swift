import VaultCore

/// The words for Keys/'s errors.
extension ErrorReport {
    /// A KeyError in words.
    static func describe(_ error: KeyError) -> ErrorReport {
        let status = error.status
        switch error {
        case .boundToAnotherDevice(let group, let accessibility):
            return ErrorReport(
                status: status,
                message: "an item of group \(quoted(group.name)) is \(accessibility.rawValue) and bound to another device",
                hint: "its key never leaves the machine it was added on; add it again here if you need it")
        case .tpm(let failure):
            return TPMFailureWords.report(failure)
        case .noDeviceKey:
            return ErrorReport(
                status: status, message: "this machine has no device key for the vault (it was made on another machine)",
                hint: "device-bound items open only where they were added; 'vault status' shows which machine this is")
        }
    }
}
