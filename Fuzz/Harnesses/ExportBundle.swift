// libFuzzer harness: the export-bundle parser (ExportBundle.open), which reads
// a file `vault import` was given. A key-file credential keeps each run cheap:
// a passphrase keyslot in the input is refused before any scrypt.
@testable import VaultCore
import VaultCrypto

private let key = UnlockSecret.keyFile(SecretBytes(Array("vault-key-v1:fuzz-bundle-key-0123456789abcdefghij\n".utf8)))

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExportBundle(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = try? ExportBundle.open(Array(UnsafeBufferPointer(start: data, count: size)), credential: key)
    return 0
}
