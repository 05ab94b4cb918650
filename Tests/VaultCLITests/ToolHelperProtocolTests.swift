#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import VaultCore
import VaultCrypto
import VaultTestSupport
@testable import VaultCLI

/// The kube, aws, cargo and Terraform helpers' readers and writers, without a vault: cargo's
/// request lines, KUBERNETES_EXEC_INFO, the PEM layout, the AWS output, the line reader, the
/// names vault answers to; and every reader fed mutated input never crashes nor names a value.
@Suite struct ToolHelperProtocolTests {
    private func secret(_ text: String) -> SecretBytes { SecretBytes(Array(text.utf8)) }
    private func text(_ secret: SecretBytes) -> String { String(decoding: secret.copyBytes(), as: UTF8.self) }

    private func usageMessage(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as UsageError {
            return error.message
        } catch {
            return "unexpected \(error)"
        }
    }

    private func invocation(_ environment: [String: String]) throws -> Invocation {
        Invocation(arguments: try Parser.parse(["kube-credential"]), environment: environment, terminal: Terminal())
    }

    private func item(_ service: String, _ value: String, expires: Date? = nil) -> Item {
        Item(
            attributes: ItemAttributes(
                service: service, account: "me", details: ItemDetails(expires: expires),
                created: Date(timeIntervalSince1970: 0), modified: Date(timeIntervalSince1970: 0)),
            secret: secret(value))
    }

    // MARK: cargo

    static let login =
        #"{"v":1,"registry":{"index-url":"sparse+https://r.example/index/","name":"r","headers":["WWW-Authenticate: Cargo"]},"kind":"login","token":"sekrit-token","login-url":"https://r.example/me","args":["cargo-credential","--group","ci"]}"#

    @Test func cargoRequestsParse() throws {
        let login = try CargoCredentialRequest.parse(secret(Self.login))
        #expect(login.indexURL == "sparse+https://r.example/index/" && login.registryName == "r")
        #expect(login.args == ["cargo-credential", "--group", "ci"])
        guard case .login(let token?) = login.action else { Issue.record("not a login with a token"); return }
        #expect(text(token) == "sekrit-token")
        let get = try CargoCredentialRequest.parse(
            secret(#"{"v":1,"registry":{"index-url":"x"},"kind":"get","operation":"publish","name":"c","vers":"1.0.0","cksum":"ab"}"#))
        guard case .get(let operation) = get.action else { Issue.record("not a get"); return }
        #expect(operation == "publish" && get.args.isEmpty)
        guard
            case .unknown("cache-clear") = try CargoCredentialRequest.parse(
                secret(#"{"v":1,"registry":{"index-url":"x"},"kind":"cache-clear"}"#)
            ).action
        else {
            Issue.record("an unknown kind is not kept as such"); return
        }
    }

    @Test func cargoBadRequestsAreNamedNeverByValue() {
        #expect(
            usageMessage { _ = try CargoCredentialRequest.parse(secret(#"{"v":2,"registry":{"index-url":"x"},"kind":"get"}"#)) }
                == "the request is not of protocol version 1")
        #expect(
            usageMessage { _ = try CargoCredentialRequest.parse(secret(#"{"v":1,"kind":"get","token":"sekrit-token"}"#)) }
                == "the request names no registry index-url")
        #expect(
            usageMessage { _ = try CargoCredentialRequest.parse(secret(#"{"v":1,"registry":{"index-url":"x"}}"#)) }
                == "the request has no kind")
        #expect(
            usageMessage { _ = try CargoCredentialRequest.parse(secret(#"{"v":1,"registry":{"index-url":"x"},"kind":"get","args":[1]}"#)) }
                == "the request's args are not all text")
        #expect(usageMessage { _ = try CargoCredentialRequest.parse(secret(#"[1]"#)) } == "the request is not a JSON object")
    }

    @Test func cargoRepliesAreTheProtocolsLines() throws {
        #expect(
            text(try CargoCredentialReply.token(secret("t\"k"), expires: nil))
                == #"{"Ok":{"kind":"get","token":"t\"k","cache":"session","operation_independent":true}}"# + "\n")
        #expect(
            text(try CargoCredentialReply.token(secret("tk"), expires: Date(timeIntervalSince1970: 1_893_553_445.7)))
                == #"{"Ok":{"kind":"get","token":"tk","cache":{"expires":1893553445},"operation_independent":true}}"# + "\n")
        #expect(CargoCredentialReply.done("logout") == #"{"Ok":{"kind":"logout"}}"# + "\n")
        #expect(CargoCredentialReply.other("a \"b\"") == #"{"Err":{"kind":"other","message":"a \"b\""}}"# + "\n")
    }

    // MARK: kubectl

    @Test func kubeExecInfoGivesVersionServerAndInteraction() throws {
        let info = try KubeExecInfo(
            try invocation([
                KubeExecInfo.variable:
                    #"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","spec":{"cluster":{"server":"https://h:6443","config":{"a":[1,true,null]}},"interactive":true}}"#
            ]))
        #expect(info.apiVersion == "client.authentication.k8s.io/v1" && info.server == "https://h:6443" && info.interactive)
        let quiet = try KubeExecInfo(
            try invocation([
                KubeExecInfo.variable: #"{"apiVersion":"client.authentication.k8s.io/v1beta1","spec":{"cluster":{"server":"https://h"}}}"#
            ]))
        #expect(!quiet.interactive)
        #expect(
            usageMessage { _ = try KubeExecInfo(try invocation([:])) }
                == "KUBERNETES_EXEC_INFO is not set: kubectl sets it when it runs a credential plugin")
        #expect(
            usageMessage {
                _ = try KubeExecInfo(
                    try invocation([
                        KubeExecInfo.variable:
                            #"{"apiVersion":"client.authentication.k8s.io/v1","spec":{"cluster":{"server":"https://h\nx"}}}"#
                    ]))
            }
                == "server in KUBERNETES_EXEC_INFO is not one line of UTF-8 text")
    }

    @Test func kubeOutputIsAnExecCredential() throws {
        let token = try KubeExecCredential.output(
            item("kube:https://h", "tok\n", expires: Date(timeIntervalSince1970: 1_893_553_445)),
            apiVersion: "client.authentication.k8s.io/v1")
        #expect(
            text(token)
                == #"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"tok","expirationTimestamp":"2030-01-02T03:04:05Z"}}"#
                + "\n")
        let pem =
            "-----BEGIN PRIVATE KEY-----\r\nS0VZ\r\n-----END PRIVATE KEY-----\r\n-----BEGIN CERTIFICATE-----\nQw==\n-----END CERTIFICATE-----"
        let certificate = try KubeExecCredential.output(item("kube:https://h", pem), apiVersion: "v")
        #expect(
            text(certificate).contains(
                #""clientCertificateData":"-----BEGIN CERTIFICATE-----\nQw==\n-----END CERTIFICATE-----","clientKeyData":"-----BEGIN PRIVATE KEY-----\r\nS0VZ\r\n-----END PRIVATE KEY-----\r\n""#
            ))
        #expect(
            usageMessage { _ = try KubeExecCredential.output(item("kube:h", "two\nlines"), apiVersion: "v") }
                == #"the secret of "kube:h" is neither a one-line token nor a PEM certificate and key"#)
        let twoKeys =
            "-----BEGIN CERTIFICATE-----\nQw==\n-----END CERTIFICATE-----\n-----BEGIN RSA PRIVATE KEY-----\nA\n-----END RSA PRIVATE KEY-----\n-----BEGIN EC PRIVATE KEY-----\nB\n-----END EC PRIVATE KEY-----\n"
        #expect(
            usageMessage { _ = try KubeExecCredential.output(item("kube:h", twoKeys), apiVersion: "v") }
                == #"the secret of "kube:h" is PEM text without a certificate and one private key"#)
    }

    // MARK: AWS

    @Test func awsOutputAddsVersionAndExpiryOnly() throws {
        let keys = #"{"AccessKeyId":"AK","SecretAccessKey":"s\/k","SessionToken":null,"Extra":1}"#
        #expect(
            text(try AWSProcessCredential.output(item("aws:p", keys))) == #"{"Version":1,"AccessKeyId":"AK","SecretAccessKey":"s/k"}"#
                + "\n")
        let temporary = #"{"AccessKeyId":"AK","SecretAccessKey":"sk","SessionToken":"st"}"#
        #expect(
            text(try AWSProcessCredential.output(item("aws:p", temporary, expires: Date(timeIntervalSince1970: 1_893_553_445))))
                == #"{"Version":1,"AccessKeyId":"AK","SecretAccessKey":"sk","SessionToken":"st","Expiration":"2030-01-02T03:04:05Z"}"#
                + "\n")
        #expect(
            usageMessage { _ = try AWSProcessCredential.output(item("aws:p", #"{"AccessKeyId":"AK","SecretAccessKey":7}"#)) }
                == #"SecretAccessKey in the secret of "aws:p" is not a string"#)
        #expect(
            usageMessage {
                _ = try AWSProcessCredential.output(item("aws:p", #"{"AccessKeyId":"AK","SecretAccessKey":"sk","Expiration":"x"}"#))
            }
                == #"the secret of "aws:p" holds an Expiration"#)
    }

    // MARK: the line reader and the names

    /// `bytes` read back line by line from a file (a pipe holds less than the bound).
    private func lines(_ bytes: [UInt8]) throws -> [String] {
        let path = FileManager.default.temporaryDirectory.path + "/vault-lines-" + UUID().uuidString
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        let reader = HelperLineReader(fd: fd)
        var result: [String] = []
        while let line = try reader.next() { result.append(text(line)) }
        return result
    }

    @Test func lineReaderSplitsLinesAndRefusesOneOverTheBound() throws {
        #expect(try lines(Array("a\r\nb\n\nc".utf8)) == ["a", "b", "", "c"])
        #expect(try lines([]) == [])
        #expect(try lines([UInt8](repeating: 0x61, count: HelperInput.limit) + [0x0A]).first?.count == HelperInput.limit)
        #expect(usageMessage { _ = try lines([UInt8](repeating: 0x61, count: HelperInput.limit + 1)) } == "a request line is over 64 KiB")
    }

    @Test func namesPickTheToolHelpers() {
        #expect(
            HelperProgram.arguments(invokedAs: "/home/me/.terraform.d/plugins/terraform-credentials-vault", ["--group", "ci", "get", "h"])
                == ["terraform-credential", "--group", "ci", "get", "h"])
        #expect(HelperProgram.arguments(invokedAs: "vault", ["--cargo-plugin"]) == ["cargo-credential", "--cargo-plugin"])
        #expect(HelperProgram.arguments(invokedAs: "vault", ["list", "--cargo-plugin"]) == ["list", "--cargo-plugin"])
    }

    // MARK: mutated input

    /// Valid inputs of each reader, each holding the token "sekrit-token".
    static let readers: [(name: String, valid: String, read: @Sendable (SecretBytes) throws -> Void)] = [
        ("cargo", login, { _ = try CargoCredentialRequest.parse($0) }),
        (
            "terraform", #"{"token":"sekrit-token","extra":{"a":[1,2.5e3,"x"]}}"#,
            { _ = try HelperJSON.parse($0, source: "the input", hint: "") }
        ),
        (
            "kube",
            #"{"apiVersion":"client.authentication.k8s.io/v1","spec":{"cluster":{"server":"https://sekrit-token"},"interactive":false}}"#,
            { bytes in
                let text = String(decoding: bytes.copyBytes(), as: UTF8.self)
                _ = try KubeExecInfo(
                    Invocation(
                        arguments: try Parser.parse(["kube-credential"]), environment: [KubeExecInfo.variable: text], terminal: Terminal()))
            }
        ),
        (
            "aws", #"{"AccessKeyId":"AK","SecretAccessKey":"sekrit-token","SessionToken":"st"}"#,
            { bytes in
                _ = try AWSProcessCredential.output(
                    Item(
                        attributes: ItemAttributes(service: "aws:p", account: "", created: Date(), modified: Date()),
                        secret: bytes))
            }
        )
    ]

    /// Each reader on mutations of its valid input (bytes flipped, cut, doubled, dropped): it
    /// answers or throws a UsageError, never crashes, and no message names the token.
    @Test func mutatedInputNeverCrashesNorLeaks() throws {
        var generator = SeededGenerator(test: "ToolHelperProtocolTests.mutatedInputNeverCrashesNorLeaks")
        let specials: [UInt8] = Array("{}[]\":,\\ntu0-.e".utf8) + [0, 0x0A, 0x0D, 0xFF, 0xC3]
        for reader in Self.readers {
            for _ in 0..<400 {
                var bytes = Array(reader.valid.utf8)
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    let at = Int.random(in: 0..<max(bytes.count, 1), using: &generator)
                    switch Int.random(in: 0..<4, using: &generator) {
                    case 0 where !bytes.isEmpty: bytes[at] = specials.randomElement(using: &generator)!
                    case 1: bytes = Array(bytes.prefix(at))
                    case 2 where !bytes.isEmpty: bytes.remove(at: at)
                    default: bytes.insert(specials.randomElement(using: &generator)!, at: min(at, bytes.count))
                    }
                }
                do {
                    try reader.read(SecretBytes(bytes))
                } catch let error as UsageError {
                    let words = error.message + (error.hint ?? "")
                    #expect(!words.contains("sekrit"), "\(reader.name): \(words) (seed \(generator.seed))")
                    #expect(!error.message.isEmpty)
                }
            }
        }
    }
}
