// libFuzzer harness: the record plaintext parser (RecordCodec.decodePlaintext),
// which reads what a record key opened.
@testable import VaultCore
import VaultCrypto

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecord(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let plaintext = SecretBytes(UnsafeRawBufferPointer(start: data, count: size))
    _ = try? RecordCodec.decodePlaintext(plaintext, group: .default, accessibility: .default)
    return 0
}
