// libFuzzer harness: the HTTP/1.1 response parser of the OpenBao client
// (HTTPResponseParser.parse), as bytes arrive and at the end of the connection:
// it must return or throw an HTTPFault, never crash or read out of bounds, and
// every body range it returns must lie inside the input.
@testable import VaultOpenBao

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPResponse(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    for atEnd in [false, true] {
        guard let parsed = try? HTTPResponseParser.parse(bytes, atEnd: atEnd) else { continue }
        for range in parsed.body where range.lowerBound < 0 || range.upperBound > size {
            fatalError("body range \(range) outside \(size) bytes")
        }
    }
    return 0
}
