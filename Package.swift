// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "vault",
    products: [
        .executable(name: "vault", targets: ["vault"]),
        .library(name: "VaultCore", targets: ["VaultCore"])
    ],
    targets: [
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(name: "VaultCrypto", dependencies: ["COpenSSL"]),
        // The kernel's key management calls (add_key, keyctl) through glibc's syscall: no libkeyutils.
        .systemLibrary(name: "CKernelKeyring"),
        .target(name: "VaultCore", dependencies: ["VaultCrypto", "CKernelKeyring"]),
        // The libsecret functions vault loads with dlopen: no pkgConfig (that
        // would link libsecret and GLib into vault) and no header paths
        // (scripts/check-libsecret-types.sh checks the types with pkg-config).
        .target(name: "CLibSecret"),
        .target(name: "VaultSecretService", dependencies: ["VaultCore", "VaultCrypto", "CLibSecret"]),
        // libdbus-1 through dlopen, for `vault secret-service serve` only: no pkgConfig and no header
        // paths (scripts/check-dbus-types.sh checks the types with pkg-config).
        .target(name: "CDBus"),
        .target(name: "VaultSecretProvider", dependencies: ["VaultCore", "VaultCrypto", "CDBus"]),
        // tpm2-tss's ESAPI through dlopen: the types come from its headers (libtss2-dev, in
        // /usr/include), nothing is linked, so vault runs where tpm2-tss is not installed.
        .target(name: "CTPM"),
        .target(name: "VaultTPM", dependencies: ["VaultCore", "VaultCrypto", "CTPM"]),
        // libssl through dlopen, only when a command reaches an https:// server (see docs/ARCHITECTURE.md).
        .target(name: "CTLS"),
        // OpenBao's HTTP API over a socket (plain, TLS, unix://): openbao:// references and the importer.
        .target(name: "VaultOpenBao", dependencies: ["VaultCore", "VaultCrypto", "CTLS"]),
        // no-new-privs, a Landlock domain and a seccomp filter for the child of `vault run` (prctl, syscall).
        .systemLibrary(name: "CTraceGuard"),
        .target(
            name: "VaultCLI",
            dependencies: ["VaultCore", "VaultSecretService", "VaultSecretProvider", "VaultTPM", "VaultOpenBao", "CTraceGuard"]),
        .executableTarget(name: "vault", dependencies: ["VaultCLI"]),
        // make bench: fills large vaults through Vault.addAll; not installed.
        .executableTarget(name: "vault-bench-fill", dependencies: ["VaultCore"], path: "Sources/VaultBenchFill"),
        // Shared by the test targets: the seeded random numbers of randomized tests.
        .target(name: "VaultTestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "VaultCryptoTests",
            dependencies: ["VaultCrypto"],
            exclude: ["Generators"],
            resources: [.copy("Vectors")]
        ),
        .testTarget(
            name: "VaultCoreTests",
            dependencies: ["VaultCore", "VaultCrypto", "VaultTestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "VaultCLITests",
            dependencies: ["VaultCLI", "VaultCore", "VaultOpenBao", "VaultTestSupport"],
            exclude: [
                "Scenarios", "Fixtures", "Support/run-github-job.py", "Support/openbao-relay.py", "Support/scan-memory.py",
                "Support/power-loss.py", "Support/keyring.py", "Support/secret-service-clients.py"
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
