// libFuzzer harness: the vault file parser (VaultFile.decode, formats v1 and
// v2), which reads every byte of an untrusted file before any key is applied.
@testable import VaultCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVaultFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let decoded = try? VaultFile.decode(bytes), decoded.file.version == VaultFile.version {
        // What decode accepted must encode back to the same bytes (v1 is read, never written).
        let file = decoded.file
        let parameters = file.encodeHeaderParameters()
        let reencoded = file.encode(
            parameters: parameters, checksum: Array(bytes[decoded.parametersEnd..<decoded.parametersEnd + 32]),
            headerMAC: decoded.headerMAC)
        precondition(reencoded == bytes, "decode then encode changed the file")
    }
    return 0
}
