// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "vault",
    products: [
        .executable(name: "vault", targets: ["vault"]),
        .library(name: "VaultCore", targets: ["VaultCore"]),
    ],
    targets: [
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(name: "VaultCrypto", dependencies: ["COpenSSL"]),
        .target(name: "VaultCore", dependencies: ["VaultCrypto"]),
        // libsecret's headers are used at build time only, to check the
        // function types that LibSecretLoader.c resolves with dlopen: no
        // pkgConfig here, since that would link libsecret and GLib into vault.
        .target(
            name: "CLibSecret",
            cSettings: [.unsafeFlags(["-I/usr/include/libsecret-1", "-I/usr/include/glib-2.0",
                                      "-I/usr/lib/x86_64-linux-gnu/glib-2.0/include",
                                      "-I/usr/lib/aarch64-linux-gnu/glib-2.0/include"])]
        ),
        .target(name: "VaultSecretService", dependencies: ["VaultCore", "VaultCrypto", "CLibSecret"]),
        .target(name: "VaultCLI", dependencies: ["VaultCore", "VaultSecretService"]),
        .executableTarget(name: "vault", dependencies: ["VaultCLI"]),
        // make bench: fills large vaults through Vault.addAll; not installed.
        .executableTarget(name: "vault-bench-fill", dependencies: ["VaultCore"], path: "Sources/VaultBenchFill"),
        // Shared by the test targets: the seeded random numbers of randomized tests.
        .target(name: "VaultTestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "VaultCryptoTests",
            dependencies: ["VaultCrypto"],
            resources: [.copy("Vectors")]
        ),
        .testTarget(
            name: "VaultCoreTests",
            dependencies: ["VaultCore", "VaultCrypto", "VaultTestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "VaultCLITests",
            dependencies: ["VaultCLI", "VaultCore", "VaultTestSupport"],
            exclude: ["Scenarios"]
        ),
    ],
    swiftLanguageModes: [.v5]
)
