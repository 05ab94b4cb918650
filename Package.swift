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
        .target(name: "VaultCLI", dependencies: ["VaultCore"]),
        .executableTarget(name: "vault", dependencies: ["VaultCLI"]),
        // make bench: fills large vaults through Vault.addAll; not installed.
        .executableTarget(name: "vault-bench-fill", dependencies: ["VaultCore"], path: "Sources/VaultBenchFill"),
        .testTarget(
            name: "VaultCryptoTests",
            dependencies: ["VaultCrypto"],
            resources: [.copy("Vectors")]
        ),
        .testTarget(
            name: "VaultCoreTests",
            dependencies: ["VaultCore", "VaultCrypto"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "VaultCLITests",
            dependencies: ["VaultCLI", "VaultCore"],
            exclude: ["Scenarios"]
        ),
    ],
    swiftLanguageModes: [.v5]
)
