// libFuzzer harness: the scoped-credential parser (ScopedCredential.decode),
// which reads a file or VAULT_CREDENTIAL value a CI job was handed.
@testable import VaultCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCredential(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? ScopedCredential.decode(bytes)
    _ = try? ScopedCredential.decode(String(decoding: bytes, as: UTF8.self), source: "fuzz")
    return 0
}
