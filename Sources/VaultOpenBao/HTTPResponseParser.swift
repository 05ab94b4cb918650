/// What makes an answer not HTTP/1.1 vault can read.
public enum HTTPFault: Error, Equatable, Sendable {
    /// The first line is not `HTTP/1.x NNN reason`.
    case statusLine
    /// A header line is not `Name: value`, or Content-Length is not one number.
    case header
    /// A chunk of a chunked body is malformed.
    case chunk
    /// A transfer coding other than chunked.
    case transferEncoding
    /// The head or the body is larger than vault reads.
    case tooLarge
    /// The connection ended before the answer did.
    case truncated
    /// A successful answer's body is not JSON.
    case body
}

/// An answer's parts, the body as ranges of the bytes parsed (a chunked body is several).
struct ParsedResponse: Equatable {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [Range<Int>]

    static func == (left: ParsedResponse, right: ParsedResponse) -> Bool {
        left.status == right.status && left.body == right.body
            && left.headers.map(\.name) == right.headers.map(\.name) && left.headers.map(\.value) == right.headers.map(\.value)
    }

    /// The value of the first header named `name` (case-insensitive).
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name }?.value
    }
}

/// Reads an HTTP/1.1 response from the bytes received so far: RFC 9112's status line, header
/// fields, and a body framed by chunked coding, Content-Length, or the end of the connection.
/// Pure, so it is fuzzed (Fuzz/Harnesses/HTTPResponse.swift).
enum HTTPResponseParser {
    /// The largest head read.
    static let maximumHead = 64 * 1024
    /// The largest body read (a KV secret's JSON; OpenBao's own request limit is 32 MiB, vault's item 1 MiB).
    static let maximumBody = 4 * 1024 * 1024

    /// The response, nil when more bytes are needed; `atEnd` says the connection has closed.
    static func parse(_ bytes: UnsafeRawBufferPointer, atEnd: Bool) throws(HTTPFault) -> ParsedResponse? {
        guard let headEnd = find([13, 10, 13, 10], in: bytes, from: 0) else {
            if bytes.count > maximumHead { throw .tooLarge }
            if atEnd { throw .truncated }
            return nil
        }
        guard headEnd <= maximumHead else { throw .tooLarge }
        let lines = split(lines: bytes, upTo: headEnd)
        guard let statusLine = lines.first else { throw .statusLine }
        let status = try parseStatus(statusLine)
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() { headers.append(try parseHeader(line)) }
        var response = ParsedResponse(status: status, headers: headers, body: [])
        let bodyStart = headEnd + 4
        if let coding = response.header("transfer-encoding") {
            guard coding.lowercased() == "chunked" else { throw .transferEncoding }
            guard let chunks = try parseChunks(bytes, from: bodyStart) else {
                if atEnd { throw .truncated }
                return nil
            }
            response.body = chunks
            return response
        }
        let lengths = headers.filter { $0.name.lowercased() == "content-length" }.map(\.value)
        if let first = lengths.first {
            guard lengths.allSatisfy({ $0 == first }), !first.isEmpty, first.utf8.count <= 9,
                first.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let length = Int(first)
            else { throw .header }
            guard length <= maximumBody else { throw .tooLarge }
            guard bytes.count - bodyStart >= length else {
                if atEnd { throw .truncated }
                return nil
            }
            response.body = [bodyStart..<bodyStart + length]
            return response
        }
        if status == 204 || status == 304 { return response }
        guard bytes.count - bodyStart <= maximumBody else { throw .tooLarge }
        guard atEnd else { return nil }
        response.body = [bodyStart..<bytes.count]
        return response
    }

    /// `HTTP/1.0` or `HTTP/1.1`, a space, three digits, then a space and a reason or nothing.
    private static func parseStatus(_ line: [UInt8]) throws(HTTPFault) -> Int {
        let prefix = Array("HTTP/1.".utf8)
        guard line.count >= 12, line.starts(with: prefix), line[7] == 0x30 || line[7] == 0x31, line[8] == 0x20,
            line[9...11].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), line.count == 12 || line[12] == 0x20
        else { throw .statusLine }
        let status = line[9...11].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        guard status >= 200 else { throw .statusLine }
        return status
    }

    /// `token ":" OWS value OWS`; a value must be visible ASCII, spaces or tabs (obsolete folding refused).
    private static func parseHeader(_ line: [UInt8]) throws(HTTPFault) -> (name: String, value: String) {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { throw .header }
        let name = line[..<colon]
        guard name.allSatisfy(isTokenByte) else { throw .header }
        var value = line[(colon + 1)...]
        while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
        while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
        guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else { throw .header }
        return (String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default: return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    /// The chunks' data ranges, nil when the last chunk has not arrived.
    private static func parseChunks(_ bytes: UnsafeRawBufferPointer, from start: Int) throws(HTTPFault) -> [Range<Int>]? {
        var ranges: [Range<Int>] = []
        var index = start
        var total = 0
        while true {
            guard let lineEnd = find([13, 10], in: bytes, from: index) else {
                if bytes.count - index > 1024 { throw .chunk }
                return nil
            }
            var sizeText = bytes[index..<lineEnd]
            if let semicolon = sizeText.firstIndex(of: UInt8(ascii: ";")) { sizeText = sizeText[..<semicolon] }
            guard !sizeText.isEmpty, sizeText.count <= 8 else { throw .chunk }
            var size = 0
            for byte in sizeText {
                guard let digit = hexValue(byte) else { throw .chunk }
                size = size * 16 + digit
            }
            index = lineEnd + 2
            if size == 0 {
                // Trailer fields, then the empty line.
                while true {
                    guard let end = find([13, 10], in: bytes, from: index) else { return nil }
                    if end == index { return ranges }
                    _ = try parseHeader(Array(bytes[index..<end]))
                    index = end + 2
                }
            }
            total += size
            guard total <= maximumBody else { throw .tooLarge }
            guard bytes.count >= index + size + 2 else { return nil }
            guard bytes[index + size] == 13, bytes[index + size + 1] == 10 else { throw .chunk }
            ranges.append(index..<index + size)
            index += size + 2
        }
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(byte - UInt8(ascii: "A")) + 10
        default: return nil
        }
    }

    /// The head's lines, split at CRLF (a bare CR or LF inside a line makes it malformed later).
    private static func split(lines bytes: UnsafeRawBufferPointer, upTo end: Int) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var start = 0
        while start <= end {
            let stop = find([13, 10], in: bytes, from: start).map { min($0, end) } ?? end
            lines.append(Array(bytes[start..<stop]))
            start = stop + 2
        }
        return lines
    }

    private static func find(_ needle: [UInt8], in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        var index = start
        while index <= bytes.count - needle.count {
            if bytes[index] == needle[0], needle.indices.allSatisfy({ bytes[index + $0] == needle[$0] }) { return index }
            index += 1
        }
        return nil
    }
}
