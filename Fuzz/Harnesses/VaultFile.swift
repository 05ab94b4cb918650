// libFuzzer harness: the v1 vault file parser (VaultFile.decode), which
// reads every byte of an untrusted file before any key is applied.
@testable import VaultCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVaultFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let decoded = try? VaultFile.decode(bytes) {
        // What decode accepted must encode back to the same bytes.
        let file = decoded.file
        let parameters = file.encodeHeaderParameters()
        let reencoded = file.encode(parameters: parameters, checksum: Array(bytes[decoded.parametersEnd..<decoded.parametersEnd + 32]),
                                    headerMAC: decoded.headerMAC)
        precondition(reencoded == bytes, "decode then encode changed the file")
    }
    return 0
}
