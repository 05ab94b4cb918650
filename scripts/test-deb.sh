#!/bin/sh
# Builds the Debian package, runs lintian on it (no errors allowed), installs
# it (dpkg -i when root in CI, removed again afterwards; dpkg -x elsewhere) and
# runs what a new user would: vault --version, vault init in a temp HOME, and
# the credential helpers through their links. Run by `make test`.
set -eu
cd "$(dirname "$0")/.."

deb="$(scripts/deb.sh)"
echo "test-deb: built $deb"
lintian --fail-on error --suppress-tags-from-file /dev/null "$deb"
echo "test-deb: lintian found no errors"

work="$(mktemp -d)"
installed=""
cleanup() {
    [ -z "$installed" ] || dpkg -r vault-keychain >/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
if [ "$(id -u)" -eq 0 ] && [ -n "${CI:-}" ] && ! dpkg-query -W vault >/dev/null 2>&1; then
    dpkg -i "$deb" >/dev/null
    installed=1
    bin=/usr/bin
    echo "test-deb: installed with dpkg -i"
else
    dpkg -x "$deb" "$work/root"
    bin="$work/root/usr/bin"
    echo "test-deb: unpacked with dpkg -x"
fi

fail() { echo "test-deb: error: $*" >&2; exit 1; }
home="$work/home"
mkdir -m 700 "$home"
run() { env -i HOME="$home" PATH="$bin:/usr/bin:/bin" VAULT_KEY_FILE="$home/key" "$@"; }

run vault --version | grep -q '^vault ' || fail "vault --version printed no version"
run vault init --key-file "$home/key" 2>/dev/null || fail "vault init failed"
printf 'deb-secret' | run vault add -s deb -a check 2>/dev/null
[ "$(run vault get -s deb -a check)" = deb-secret ] || fail "vault get did not return the secret"
printf 'protocol=https\nhost=example.org\nusername=u\npassword=from-git\n\n' | run git-credential-vault store
[ "$(printf 'protocol=https\nhost=example.org\n\n' | run git-credential-vault get | grep '^password=')" = password=from-git ] ||
    fail "git-credential-vault did not answer through its link"
run docker-credential-vault version | grep -q . || fail "docker-credential-vault printed no version"
printf '{"ServerURL":"https://registry.example.org","Username":"u","Secret":"from-docker"}' | run docker-credential-vault store
printf 'https://registry.example.org' | run docker-credential-vault get | grep -q '"Secret":"from-docker"' ||
    fail "docker-credential-vault did not answer through its link"
# Terraform's helper is a link in a plugin directory, not on PATH.
terraform_helper="$bin/../lib/vault/terraform-plugins/terraform-credentials-vault"
printf '{"token":"from-terraform"}' | run "$terraform_helper" store app.example.org
[ "$(run "$terraform_helper" get app.example.org)" = '{"token":"from-terraform"}' ] ||
    fail "terraform-credentials-vault did not answer through its link"
# Test-only hooks are compiled out of the release binary: no environment variable picks what it
# dlopens (VAULT_LIBSECRET_PATH) or fixes its clock (VAULT_TEST_NOW, checked by an expired add).
backend="$(run env VAULT_LIBSECRET_PATH="$work/missing.so" vault --backend secret-service list 2>&1 || true)"
case "$backend" in *"$work/missing.so"*) fail "the packaged binary read VAULT_LIBSECRET_PATH: $backend" ;; esac
printf 'x' | run env VAULT_TEST_NOW=4102444800 vault add -s deb -a clock --expires 2030-01-01 2>/dev/null ||
    fail "the packaged binary read VAULT_TEST_NOW (an expiry in 2030 was refused as past)"
readelf -d "$bin/vault" | grep -qE 'RPATH|RUNPATH' && fail "the packaged binary has a RUNPATH"
# Each shared library costs every start its symbol lookups (bench/README.md): glibc and libcrypto only.
needed="$(readelf -d "$bin/vault" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | grep -vE '^(libc|libm)\.so|^ld-linux' | tr '\n' ' ')"
[ "$needed" = "libcrypto.so.3 " ] || fail "the packaged binary needs $needed(only libcrypto.so.3 beside glibc)"
echo "test-deb: vault --version, init, add/get and the git, docker and Terraform helpers work from the package"
