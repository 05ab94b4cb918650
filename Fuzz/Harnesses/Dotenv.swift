// libFuzzer harness: the env-file parser of `vault run --env-file` (Dotenv.parse).
@testable import VaultCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDotenv(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = try? Dotenv.parse(String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self))
    return 0
}
