import Foundation
import Testing
@testable import VaultCore
import VaultCrypto

/// Every committed fuzz input (Fuzz/Regressions/NAME: crashes found and fixed;
/// Fuzz/Corpus/NAME: the seeds) through the parser its harness fuzzes, so a
/// fixed crash stays fixed without a fuzzer build. A new harness of a
/// VaultCore parser adds one entry here; see Fuzz/README.md.
@Suite struct FuzzRegressionTests {
    static let parsers: [String: @Sendable ([UInt8]) -> Void] = [
        "VaultFile": { bytes in
            // v1 files are read, never written: only a v2 file must encode back to its bytes.
            guard let decoded = try? VaultFile.decode(bytes), decoded.file.version == VaultFile.version else { return }
            let parameters = decoded.file.encodeHeaderParameters()
            let end = decoded.parametersEnd
            #expect(
                decoded.file.encode(
                    parameters: parameters, checksum: Array(bytes[end..<end + 32]),
                    headerMAC: decoded.headerMAC) == bytes)
        },
        "Record": { bytes in
            _ = try? RecordCodec.decodePlaintext(SecretBytes(bytes), group: .default, accessibility: .default)
            _ = try? RecordCodec.decodeHistory(SecretBytes(bytes))
            _ = try? RecordCodec.decodeConflicts(SecretBytes(bytes))
        },
        "Credential": { payload in
            // As the harness: the input is the payload; the checksum is appended.
            let bytes = payload + SHA256.hash(payload).prefix(ScopedCredential.checksumSize)
            _ = try? ScopedCredential.decode(bytes)
            _ = try? ScopedCredential.decode(ScopedCredential.textPrefix + Base64.encode(bytes), source: "fuzz")
        },
        "ExportBundle": { bytes in
            let key = UnlockSecret.keyFile(SecretBytes(Array("vault-key-v1:fuzz-bundle-key-0123456789abcdefghij\n".utf8)))
            _ = try? ExportBundle.open(bytes, credential: key)
        },
        "ExportBundleBody": { bytes in
            guard let items = try? ExportBundle.decodeBody(SecretBytes(bytes)) else { return }
            #expect((try? ExportBundle.decodeBody(ExportBundle.encodeBody(items)))?.map(\.attributes) == items.map(\.attributes))
        },
        "Dotenv": { bytes in _ = try? Dotenv.parse(String(decoding: bytes, as: UTF8.self)) },
        "Template": { bytes in
            _ = try? Template.parse(bytes)
            _ = try? SecretReference(parsing: String(decoding: bytes, as: UTF8.self))
        }
    ]

    @Test(arguments: parsers.keys.sorted())
    func committedInputs(harness: String) throws {
        let inputs = FuzzInputs.load(harness)
        #expect(!FuzzInputs.load(harness, kinds: ["Regressions"]).isEmpty, "no inputs in Fuzz/Regressions/\(harness)")
        #expect(!FuzzInputs.load(harness, kinds: ["Corpus"]).isEmpty, "no seeds in Fuzz/Corpus/\(harness)")
        for input in inputs { Self.parsers[harness]!(input) }
    }

    /// The seeds of the harnesses behind a checksum or a tag are valid: fuzzing
    /// starts from inputs that reach the field parser, not from ones it refuses.
    @Test func gatedHarnessSeedsReachTheFieldParser() throws {
        for payload in FuzzInputs.load("Credential", kinds: ["Corpus"]) {
            let credential = try ScopedCredential.decode(payload + SHA256.hash(payload).prefix(ScopedCredential.checksumSize))
            #expect(!credential.grants.isEmpty)
        }
        let bodies = FuzzInputs.load("ExportBundleBody", kinds: ["Corpus"])
        #expect(try bodies.map { try ExportBundle.decodeBody(SecretBytes($0)).count }.sorted() == [0, 2])
    }
}

/// The committed inputs of one fuzz harness: its regressions, then its seeds.
enum FuzzInputs {
    static func load(_ harness: String, kinds: [String] = ["Regressions", "Corpus"]) -> [[UInt8]] {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        return kinds.flatMap { kind -> [[UInt8]] in
            let directory = root.path + "/Fuzz/\(kind)/\(harness)"
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            return names.sorted().compactMap { FileManager.default.contents(atPath: directory + "/" + $0).map { Array($0) } }
        }
    }
}
