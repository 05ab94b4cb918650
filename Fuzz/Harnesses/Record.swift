// libFuzzer harness: the record plaintext parsers (the item, its earlier secrets and its
// merge conflicts, as OpenVault.openWholeRecord reads them), which read what a record key opened.
@testable import VaultCore
import VaultCrypto

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecord(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let plaintext = SecretBytes(UnsafeRawBufferPointer(start: data, count: size))
    _ = try? RecordCodec.decodePlaintext(plaintext, group: .default, accessibility: .default)
    _ = try? RecordCodec.decodeHistory(plaintext)
    _ = try? RecordCodec.decodeConflicts(plaintext)
    return 0
}
