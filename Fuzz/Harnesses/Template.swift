// libFuzzer harness: the template parser of `vault inject` (Template.parse) and
// the vault:// and openbao:// references it finds (SecretReference, OpenBaoReference).
@testable import VaultCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTemplate(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? Template.parse(bytes)
    _ = try? SecretReference(parsing: String(decoding: bytes, as: UTF8.self))
    _ = try? OpenBaoReference(parsing: String(decoding: bytes, as: UTF8.self))
    return 0
}
