import VaultCore

// Commands that keep secrets out of repositories and logs: scan, redact.
extension CommandTable {

    static let scanCommand = CommandSpec(
        "scan", summary: "find leaked secrets in files or git history",
        discussion: """
            Searches for the exact bytes of every secret the caller can read, and for \
            their base64 (standard and URL-safe, padded or not, at every alignment, so a \
            token inside an encoded user:token is found), hex, URL and JSON-string \
            encodings. Without --git-history it searches every file under each PATH \
            (default .), including files git ignores (--skip-ignored searches only what \
            git would track), skipping .git and following no symlinks. With --git-history \
            it searches every blob reachable from any ref of the repository at PATH, each \
            unique blob once, and names the commits that added it. Each hit prints its \
            place (path:line:column, or commit:path:line) and the item, never the secret. \
            Secrets shorter than 8 bytes are not searched, and are listed. Exit status: 0 \
            when nothing is found, 1 when something is (--exit-code N to change it), 3 when \
            the scan could not complete, and vault's usual codes for usage (2) and unlock \
            failures; never 1 for an error.
            """,
        positionals: [
            PositionalSpec(
                "PATH", help: "files or directories to search, or the repository with --git-history (default .)",
                optional: true, variadic: true, completion: .file)
        ],
        examples: [
            ExampleSpec("vault scan --git-history .", "fail a CI step when a secret was ever committed"),
            ExampleSpec("vault scan dist/ logs/", "search build output and logs, ignored files included"),
            ExampleSpec(
                "vault scan --git-history --baseline .vault-baseline --update-baseline",
                "accept the current hits, so later scans fail only on new ones"),
            ExampleSpec("vault scan --group ci --json", "search for the group ci's secrets and print JSON"),
            ExampleSpec("vault scan --ref openbao://secret/ci/db#password dist/", "search build output for a value kept in OpenBao")
        ],
        run: ScanCommand.run)

    static let redactCommand = CommandSpec(
        "redact", summary: "copy stdin to stdout with every secret concealed",
        discussion: """
            Copies stdin to stdout with each secret the caller can read replaced by \
            <concealed by vault>, as vault run masks its command's output: streaming, a \
            secret split across reads still found, every other byte unchanged, secrets \
            shorter than 4 bytes not masked. For logs that did not come through vault run. \
            It fails closed: when the secrets cannot be loaded it reads and prints nothing \
            and exits non-zero, so use set -o pipefail in the shell that pipes into it.
            """,
        examples: [
            ExampleSpec("set -o pipefail; ./deploy.sh 2>&1 | vault redact", "conceal secrets in a script's log"),
            ExampleSpec("kubectl logs deploy/api | vault redact --group prod", "conceal the group prod's secrets in a pod's log"),
            ExampleSpec("./deploy.sh 2>&1 | vault redact --ref openbao://secret/ci/db#password", "conceal a value kept in OpenBao")
        ],
        run: RedactCommand.run)
}
