import Testing
import VaultCrypto

@Suite("HMAC-SHA256")
struct HMACTests {
    @Test("RFC 4231 test cases 1–7, one-shot and streaming", arguments: try Vectors.load("hmac-sha256-rfc4231.txt"))
    func knownAnswer(_ v: Vector) throws {
        let key = SecretBytes(v.bytes("Key"))
        let data = v.bytes("Data")
        let length = v["Truncate"].flatMap(Int.init) ?? 32

        let oneShot = HMAC.sha256(key: key, data: data)
        #expect(oneShot.count == 32)
        #expect(hexString(Array(oneShot.prefix(length))) == hexString(v.bytes("MAC")))

        let raw = data.withUnsafeBytes { HMAC.sha256(key: key, data: $0) }
        #expect(raw == oneShot)

        let streaming = try HMACSHA256(key: key)
        streaming.update(data)
        #expect(streaming.finalize() == oneShot)
    }

    @Test("streaming equals one-shot wherever the data is split")
    func streamingSplits() throws {
        let v = try #require(try Vectors.load("hmac-sha256-rfc4231.txt").first { $0["Case"] == "7" })
        let key = SecretBytes(v.bytes("Key"))
        let data = v.bytes("Data")
        let expected = v.bytes("MAC")
        for split in 0...data.count {
            let mac = try HMACSHA256(key: key)
            mac.update(Array(data[..<split]))
            data[split...].withUnsafeBytes { mac.update($0) }
            #expect(mac.finalize() == expected, "split at \(split)")
        }
    }

    @Test("100 000 small updates equal one MAC over the concatenation")
    func manyPieces() throws {
        let key = SecretBytes(random: 32)
        let mac = try HMACSHA256(key: key)
        var all: [UInt8] = []
        mac.update(Array("header".utf8))
        all += Array("header".utf8)
        for i in 0..<100_000 {
            let entry: [UInt8] = [UInt8(truncatingIfNeeded: i), UInt8(truncatingIfNeeded: i >> 8), UInt8(truncatingIfNeeded: i >> 16)]
            mac.update(entry)
            all += entry
        }
        mac.update([])
        #expect(mac.finalize() == HMAC.sha256(key: key, data: all))
    }

    @Test("an empty key and empty data give the well-known value")
    func emptyKey() throws {
        // HMAC-SHA256("", ""), e.g. Python hmac.new(b"", b"", hashlib.sha256).
        let expected = hexBytes("b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
        #expect(HMAC.sha256(key: SecretBytes([]), data: []) == expected)
        #expect(try HMACSHA256(key: SecretBytes([])).finalize() == expected)
    }
}
