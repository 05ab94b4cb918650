#!/bin/sh
# Installs the Debian packages that building and testing vault need, and only
# those that are missing. Run by `make deps` (and so by `make test` and CI).
set -eu

# One list; later features append to it.
#   pkg-config libssl-dev       build: the COpenSSL system library
#   util-linux                  tests: setsid runs the binary with no terminal
#   mandoc                      tests: lint the generated man page
#   bash-completion zsh fish    tests: load the generated completions
#   git python3 python3-yaml    tests (python3-yaml: RepositoryFlowTests runs the README's GitHub Actions job; python3: ReadmeBlocksTests drives the README's blocks on a pty)
#   python3-cryptography        tests: Tests/FormatReader/vault_v1.py and vault_v3.py, the independent readers of formats v1 and v3
#   python3-docker              tests: docker's credential store client drives docker-credential-vault
#   libsecret-1-dev             build: libsecret's headers check the types CLibSecret loads with dlopen
#   gnome-keyring dbus-daemon libsecret-tools libglib2.0-bin
#                               tests: a real Secret Service (dbus-run-session, gnome-keyring-daemon),
#                               secret-tool for interop, gdbus to lock a collection
#   binutils                    make fuzz: objdump checks that the fuzzed modules have coverage counters
#   hyperfine pass gnupg time   make bench: timing (also bench/masking.sh), the pass peer, peak RSS;
#                               tests: the pass store vault import --from pass reads
#   age                         tests: vault identity's keys are checked against age-keygen and age
#   lintian                     make test: the Debian package is checked by lintian (readelf, from binutils, for its RUNPATH)
#   libstdc++-12-dev            make release: GCC's static libstdc++, linked into the installed binary
#   libtss2-dev                 build: tpm2-tss's headers give the types Sources/CTPM loads with dlopen (it pulls in
#                               libtss2-esys-3.0.2-0, libtss2-tctildr0 and the swtpm TCTI, libtss2-tcti-swtpm0)
#   swtpm swtpm-tools tpm2-tools
#                               tests: a software TPM 2.0 (TPMTests) and tpm2-tools to extend its PCRs and set its lockout
PACKAGES="pkg-config libssl-dev libstdc++-12-dev util-linux mandoc bash-completion zsh fish git python3 python3-yaml"
PACKAGES="$PACKAGES python3-docker python3-cryptography"
# python3-dotenv: a real dotenv reader, for the vault env --format dotenv property test
PACKAGES="$PACKAGES python3-dotenv"
PACKAGES="$PACKAGES libsecret-1-dev gnome-keyring dbus-daemon libsecret-tools libglib2.0-bin"
PACKAGES="$PACKAGES binutils"
PACKAGES="$PACKAGES hyperfine pass gnupg time"
# keepassxc: keepassxc-cli (Debian 12 has no keepassxc-minimal) makes and exports the KeePassXC
# database of the vault import --from kdbx scenario; pass and gnupg (above) its pass store
PACKAGES="$PACKAGES keepassxc"
PACKAGES="$PACKAGES age"
PACKAGES="$PACKAGES libtss2-dev swtpm swtpm-tools tpm2-tools"
PACKAGES="$PACKAGES lintian"
# oathtool: a second implementation of TOTP/HOTP that vault otp's codes are checked against;
# diceware: ships the EFF large word list that Sources/VaultCore/Generator embeds (its README)
PACKAGES="$PACKAGES oathtool diceware"
# xvfb, xclip, xsel: a real X clipboard for the vault get --clip tests (ClipboardTests); procps: pgrep,
# with which the tests wait for the detached clipboard clearer to finish
PACKAGES="$PACKAGES xvfb xclip xsel procps"
# sway, wl-clipboard: a headless Wayland compositor with a seat (weston's headless backend has none)
# and wl-copy/wl-paste, for the Wayland case of the same tests
PACKAGES="$PACKAGES sway wl-clipboard"
# pre-commit: runs the repository's .pre-commit-hooks.yaml (vault-scan) as its users would (PreCommitHookTests)
PACKAGES="$PACKAGES pre-commit"
# strace: counts the files a command opens (ConfigReadOnceTests: the config is read once per run)
PACKAGES="$PACKAGES strace jq"
# gcc, libc6-dev: cc builds the fault-injection shim (Tests/FaultInjection/fault-shim.c) that FaultInjectionTests preloads
PACKAGES="$PACKAGES gcc libc6-dev"
# python3-venv: the project-local .venv-tests/ (scripts/install-test-venv.sh) with kubectl, botocore,
# boto3, awscli and moto from PyPI, the real clients of the kube-, aws-credential tests
PACKAGES="$PACKAGES python3-venv"
# libdbus-1-dev: libdbus's headers check the types Sources/CDBus loads with dlopen (vault secret-service);
# python3-secretstorage python3-keyring (with python3-jeepney): Debian's clients of vault's Secret Service
# provider (SecretServiceProviderTests), jeepney also scripting the Chromium, go-keyring and Evolution calls
PACKAGES="$PACKAGES libdbus-1-dev python3-secretstorage python3-keyring python3-jeepney"

missing=""
for package in $PACKAGES; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
        missing="$missing $package"
    fi
done
missing="${missing# }"

if [ -z "$missing" ]; then
    echo "install-deps: all packages present ($PACKAGES)"
    exec "$(dirname "$0")/install-test-venv.sh"
fi

if [ "$(id -u)" -eq 0 ]; then
    as_root=""
elif command -v sudo >/dev/null 2>&1; then
    as_root="sudo"
else
    echo "install-deps: error: missing packages: $missing" >&2
    echo "install-deps: hint: run as root: apt-get install $missing" >&2
    exit 1
fi

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086 # word splitting of $as_root and $missing is wanted
if ! { $as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q &&
       $as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing; } \
       >"$log" 2>&1; then
    cat "$log" >&2
    echo "install-deps: error: could not install: $missing" >&2
    exit 1
fi
echo "install-deps: installed $missing"
exec "$(dirname "$0")/install-test-venv.sh"
