// libFuzzer harness: the argument parser over the real command table. The
// input is argv: words separated by NUL bytes (invalid UTF-8 is repaired, as
// CommandLine.arguments does). A parse error must render as a message.
@testable import VaultCLI

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArguments(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let argv = UnsafeBufferPointer(start: data, count: size).split(separator: 0, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    do {
        _ = try Parser.parse(argv)
    } catch {
        _ = ErrorReport(error).message
    }
    return 0
}
