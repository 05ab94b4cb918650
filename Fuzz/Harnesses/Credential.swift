// libFuzzer harness: the scoped-credential parser (ScopedCredential.decode),
// which reads a file or VAULT_CREDENTIAL value a CI job was handed. The input
// is the payload without its checksum: the harness appends the checksum, as
// `vault grant` does, so mutations reach the field parser behind it (almost
// no mutated credential passes a checksum by chance). Each payload is also
// tried in the text form, through base64.
@testable import VaultCore
@testable import VaultCrypto

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCredential(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let payload = Array(UnsafeBufferPointer(start: data, count: size))
    let bytes = payload + SHA256.hash(payload).prefix(ScopedCredential.checksumSize)
    _ = try? ScopedCredential.decode(bytes)
    _ = try? ScopedCredential.decode(ScopedCredential.textPrefix + Base64.encode(bytes), source: "fuzz")
    return 0
}
