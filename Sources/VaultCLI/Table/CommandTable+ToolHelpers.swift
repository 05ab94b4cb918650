import VaultCore

// MARK: - Credential helpers for kubectl, the AWS SDKs, cargo and Terraform

extension CommandTable {
    /// What each of these helpers' discussions ends with: how a credential is found, and the exits.
    private static let oneItemRule = """
        The credential is the one item of its service in the group, whatever its account; \
        two or more are an error that names them (exit 2). A locked vault exits 36 (at once, \
        never waiting for a prompt the tool cannot show), a missing item 44, a group the \
        credential does not open 30, bad input 2 (over 64 KiB too), each with one line on \
        stderr that names the problem and the fix, and nothing secret. See docs/INTEGRATIONS.md.
        """

    static let kubeCredentialCommand = CommandSpec(
        "kube-credential", summary: "be kubectl's exec credential plugin",
        discussion: """
            Speaks client-go's exec credential plugin protocol: reads KUBERNETES_EXEC_INFO, which \
            kubectl sets with provideClusterInfo: true, and prints an ExecCredential for the \
            cluster's server: status.token, or clientCertificateData and clientKeyData when the \
            secret is PEM text (the certificate, then its private key), with \
            expirationTimestamp only when the item has an expiry. The item's service is \
            kube:SERVER, the server URL exactly as the kubeconfig's cluster names it. It prompts \
            only when kubectl allows it (interactiveMode IfAvailable or Always, with a terminal). \
            \(oneItemRule)
            """,
        examples: [
            ExampleSpec(
                #"KUBERNETES_EXEC_INFO='{"apiVersion":"client.authentication.k8s.io/v1","spec":{"cluster":{"server":"https://10.0.0.1:6443"}}}' vault kube-credential"#,
                "answer as kubectl asks: the ExecCredential of the item kube:https://10.0.0.1:6443"),
            ExampleSpec(
                "vault add -s kube:https://10.0.0.1:6443 -a admin --secret-file token",
                "store the bearer token kubectl is to send to that cluster")
        ],
        run: KubeCredentialCommand.run)

    static let awsCredentialCommand = CommandSpec(
        "aws-credential", summary: "be an AWS SDK's credential_process",
        discussion: """
            Prints the AWS SDKs' credential_process JSON, {"Version":1,"AccessKeyId":...,\
            "SecretAccessKey":...}, with SessionToken when stored and Expiration only when the \
            item has an expiry (the SDK runs it again shortly before). The item's service is \
            aws:PROFILE and its secret the same JSON without Version: {"AccessKeyId":...,\
            "SecretAccessKey":...[,"SessionToken":...]}. In ~/.aws/config: \
            credential_process = vault aws-credential PROFILE. It never prompts: the SDK shows \
            its stderr only when it fails. \(oneItemRule)
            """,
        positionals: [PositionalSpec("PROFILE", help: "the profile whose keys to print: the item aws:PROFILE")],
        examples: [
            ExampleSpec("vault aws-credential dev", "print the keys of profile dev as credential_process does"),
            ExampleSpec(
                #"printf '{"AccessKeyId":"%s","SecretAccessKey":"%s"}' "$ID" "$KEY" | vault add -s aws:dev -a me"#,
                "store the keys of profile dev"),
            ExampleSpec("vault aws-credential --group ci deploy", "the keys of profile deploy in the access group ci")
        ],
        run: AWSCredentialCommand.run)

    static let cargoCredentialCommand = CommandSpec(
        "cargo-credential", summary: "be cargo's credential provider",
        discussion: """
            Speaks cargo's credential provider protocol (cargo 1.74 and later): says {"v":[1]}, \
            then answers each JSON request line until cargo closes stdin. get prints the token \
            of the item cargo:INDEX-URL (the index URL exactly as cargo sends it, e.g. \
            sparse+https://...), cached for the cargo run, or until the item's expiry when it \
            has one; login stores a token (asked on the terminal when cargo sends none); logout \
            removes it. A failure is an Err reply that cargo shows (not-found when none is \
            stored). cargo runs vault --cargo-plugin, which means vault cargo-credential \
            --cargo-plugin, with the rest of the credential-provider setting, e.g. \
            ["vault", "cargo-credential", "--group", "ci"], in each request's args. \
            See docs/INTEGRATIONS.md.
            """,
        examples: [
            ExampleSpec(
                #"printf '%s\n' '{"v":1,"registry":{"index-url":"sparse+https://r.example/index/"},"kind":"get","operation":"read"}' | vault cargo-credential --cargo-plugin"#,
                "ask as cargo would")
        ],
        run: CargoCredentialCommand.run)

    static let terraformCredentialCommand = CommandSpec(
        "terraform-credential", summary: "be Terraform's credentials helper",
        discussion: """
            Speaks Terraform's (and OpenTofu's) credentials helper protocol: get HOST prints \
            {"token":...}, or {} when none is stored; store HOST reads {"token":...} on stdin; \
            forget HOST removes it. The item's service is terraform:HOST. Installed as \
            terraform-credentials-vault, a link to vault, which Terraform finds only in a plugin \
            directory: link it into ~/.terraform.d/plugins and put credentials_helper "vault" {} \
            in ~/.terraformrc; args = ["--group", "ci"] there picks a group. \(oneItemRule)
            """,
        positionals: [
            PositionalSpec("OPERATION", help: "what Terraform asks for", completion: .values(TerraformCredentialCommand.operations)),
            PositionalSpec("HOST", help: "the host of the Terraform service, e.g. app.terraform.io")
        ],
        examples: [
            ExampleSpec("vault terraform-credential get app.terraform.io", "print the token stored for HCP Terraform"),
            ExampleSpec(
                #"printf '{"token":"%s"}' "$TOKEN" | vault terraform-credential store tfe.example.com"#,
                "store a token as terraform login does")
        ],
        run: TerraformCredentialCommand.run)
}
