import Foundation
@testable import VaultCore
import VaultCrypto

/// A private temporary directory for one test, removed when released.
final class TempDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.path + "/vault-core-" + UUID().uuidString
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func location(_ name: String = "test.vault") -> VaultLocation {
        VaultLocation(path: path + "/" + name)
    }
}

/// A fixed key-file credential: fast to unlock (no scrypt).
let testKeyFile = UnlockSecret.keyFile(SecretBytes(Array("vault-key-v1:test-key-material-0123456789abcdef\n".utf8)))

/// A clock tests move by hand.
final class TestClock: @unchecked Sendable {
    var now = Date(timeIntervalSince1970: 1_800_000_000)

    func advance(_ seconds: TimeInterval) { now += seconds }
}

extension SecretBytes {
    var text: String { String(decoding: copyBytes(), as: UTF8.self) }
}

/// Where this machine's device key of the vault at `location` lives, for a
/// vault opened with `host` (the convenience initialiser's when nil).
func deviceKeyPath(of location: VaultLocation, host: HostContext? = nil) -> String {
    DeviceKeyStore.path(vaultID: VaultFile.peekVaultID(fileBytes(location.path)), host: host ?? Vault.selfContainedHost(for: location))
}

/// The device key of the vault at `location` (see `deviceKeyPath(of:host:)`), nil when there is none.
func deviceKey(of location: VaultLocation, host: HostContext? = nil) throws -> DeviceKey? {
    let bytes = fileBytes(location.path)
    return try DeviceKeyStore.load(
        vaultID: VaultFile.peekVaultID(bytes), location: location, host: host ?? Vault.selfContainedHost(for: location),
        isTheVaults: { _ in true })
}

extension Vault {
    /// A new vault at `location` with the test key file.
    static func makeTest(at location: VaultLocation, clock: TestClock = TestClock()) throws -> Vault {
        try Vault.create(at: location, credential: testKeyFile, kdf: .testing)
        return Vault(location: location, credential: testKeyFile, clock: { clock.now })
    }

    @discardableResult
    func add(
        _ service: String, _ account: String, _ secret: String, group: AccessGroup = .default,
        accessibility: Accessibility = .default, label: String? = nil
    ) throws -> AddOutcome {
        try add(
            NewItem(
                service: service, account: account, group: group, accessibility: accessibility,
                details: ItemDetails(label: label), secret: SecretBytes(Array(secret.utf8))))
    }

    func secret(_ service: String, _ account: String, group: AccessGroup? = nil) throws -> String {
        try item(matching: Query(service: service, account: account, group: group)).secret.text
    }

    /// The same file, unlockers and host with `change` made to the configuration: a second look
    /// at a vault with another setting, since a vault keeps the configuration it was made with.
    func reconfigured(_ change: (inout Configuration) -> Void) -> Vault {
        var configuration = self.configuration
        change(&configuration)
        return Vault(location: location, unlockers: walk.unlockers, host: host, configuration: configuration)
    }
}

func fileBytes(_ path: String) -> [UInt8] {
    Array(FileManager.default.contents(atPath: path) ?? Data())
}

func writeBytes(_ bytes: [UInt8], to path: String) {
    FileManager.default.createFile(atPath: path, contents: Data(bytes), attributes: [.posixPermissions: 0o600])
}

/// Opening bytes held in memory, as the tests make them.
extension Snapshot {
    static func unlock(_ bytes: [UInt8], secret: UnlockSecret, deviceKey: DeviceKey?, path: String) throws -> Snapshot {
        try unlock(FileBytes(bytes), secret: secret, deviceKey: deviceKey, path: path)
    }

    static func open(_ bytes: [UInt8], masterKey: MasterKey, deviceKey: DeviceKey?, path: String) throws -> Snapshot {
        try open(FileBytes(bytes), masterKey: masterKey, deviceKey: deviceKey, path: path)
    }

    static func open(_ bytes: [UInt8], credential: ScopedCredential, deviceKey: DeviceKey?, path: String) throws -> Snapshot {
        try open(FileBytes(bytes), credential: credential, deviceKey: deviceKey, path: path)
    }

    static func openPartial(_ bytes: [UInt8], deviceKey: DeviceKey?, grants: [GroupGrant], path: String) throws -> Snapshot {
        try openPartial(FileBytes(bytes), deviceKey: deviceKey, grants: grants, path: path)
    }
}

extension IndexTable {
    /// The entries as the file holds them.
    var encoded: [UInt8] { withEncoded { Array($0) } }
}

/// Where the first index entry starts in a decoded v2 file: after the header parameters, checksum,
/// header MAC, header signature and record count (docs/FORMAT.md).
func indexStart(_ decoded: VaultFile.Decoded) -> Int {
    decoded.parametersEnd + 2 * VaultFile.digestSize + Ed25519.signatureSize + 4
}

/// Where group `slot`'s section starts in a decoded v2 file: after the index and the sections before it.
func sectionStart(_ decoded: VaultFile.Decoded, slot: Int) -> Int {
    indexStart(decoded) + decoded.file.index.count * IndexEntry.v2Size
        + decoded.file.sections[..<slot].reduce(0) { $0 + GroupSection.size(bucketCount: $1.bucketDigests.count) }
}

/// Where group `slot`'s index MAC starts (its read MAC follows): after its generation, bucket count and digests.
func indexMACStart(_ decoded: VaultFile.Decoded, slot: Int) -> Int {
    sectionStart(decoded, slot: slot) + 8 + 2 + 32 * decoded.file.sections[slot].bucketDigests.count
}

extension UnlockAttempt {
    /// What a failed read says of the device key: it opened the vault, not the item.
    static let deviceKeyNotEnough = UnlockAttempt(.deviceKey, .notEnough)
}
