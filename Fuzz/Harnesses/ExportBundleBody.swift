// libFuzzer harness: the items of an export bundle (ExportBundle.decodeBody),
// which `vault import` parses once AES-GCM has opened them. Behind the tag no
// mutated bundle reaches this parser, so it is fuzzed directly here.
@testable import VaultCore
import VaultCrypto

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExportBundleBody(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = SecretBytes(UnsafeRawBufferPointer(start: data, count: size))
    if let items = try? ExportBundle.decodeBody(body) {
        // What decodes must decode again, item for item, from its own encoding.
        let again = try? ExportBundle.decodeBody(ExportBundle.encodeBody(items))
        precondition(again?.map(\.attributes) == items.map(\.attributes), "decode, encode, decode changed the items")
    }
    return 0
}
