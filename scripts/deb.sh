#!/bin/sh
# Builds the Debian package (make deb): the release binary (static Swift
# runtime, stripped, no RUNPATH), the git and docker helper links, the man
# page and the bash, zsh and fish completions where Debian looks for them.
# Writes dist/vault-keychain_VERSION_ARCH.deb and prints its path.
set -eu
cd "$(dirname "$0")/.."

SWIFT="${SWIFT:-swift}"
# Word splitting of the flags is wanted.
# shellcheck disable=SC2086
RELEASE_FLAGS="${RELEASE_FLAGS:-$(scripts/release-flags.sh)}"
package=vault-keychain

for f in man/vault.1 completions/vault.bash completions/_vault completions/vault.fish; do
    [ -f "$f" ] || { echo "deb: $f is missing; run 'make generate' and commit it" >&2; exit 1; }
done
# shellcheck disable=SC2086
$SWIFT build $RELEASE_FLAGS >&2
# shellcheck disable=SC2086
binary="$($SWIFT build $RELEASE_FLAGS --show-bin-path)/vault"
version="$("$binary" --version | awk '{ print $NF }')"
arch="$(dpkg --print-architecture)"

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
root="$stage/$package"
doc="$root/usr/share/doc/$package"
install -d -m 0755 "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/man/man1" "$doc" \
    "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
    "$root/usr/share/fish/vendor_completions.d"

install -m 0755 "$binary" "$root/usr/bin/vault"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/vault"
# git and docker run their credential helpers by these names; vault answers to them.
ln -s vault "$root/usr/bin/git-credential-vault"
ln -s vault "$root/usr/bin/docker-credential-vault"
# Terraform runs its credentials helper only from a plugin directory (each user links this one
# into ~/.terraform.d/plugins: docs/INTEGRATIONS.md), never from PATH.
install -d -m 0755 "$root/usr/lib/vault/terraform-plugins"
ln -s ../../../bin/vault "$root/usr/lib/vault/terraform-plugins/terraform-credentials-vault"
gzip -9n -c man/vault.1 > "$root/usr/share/man/man1/vault.1.gz"
ln -s vault.1.gz "$root/usr/share/man/man1/git-credential-vault.1.gz"
ln -s vault.1.gz "$root/usr/share/man/man1/docker-credential-vault.1.gz"
install -m 0644 completions/vault.bash "$root/usr/share/bash-completion/completions/vault"
install -m 0644 completions/_vault "$root/usr/share/zsh/vendor-completions/_vault"
install -m 0644 completions/vault.fish "$root/usr/share/fish/vendor_completions.d/vault.fish"
install -m 0644 packaging/debian/copyright "$doc/copyright"
# A native package (no Debian revision): its changelog is changelog.gz.
sed "s/@VERSION@/$version/" packaging/debian/changelog | gzip -9n > "$doc/changelog.gz"
chmod 0644 "$root/usr/share/man/man1/vault.1.gz" "$doc/changelog.gz"

installed_size="$(du -sk --exclude=DEBIAN "$root" | cut -f1)"
# The release flags link GCC's C++ runtime and unwinder in where their archives are installed; a binary
# built without them needs their libraries.
runtime_depends=""
needed="$(readelf -d "$root/usr/bin/vault")"
case "$needed" in *"[libgcc_s.so"*) runtime_depends="$runtime_depends, libgcc-s1" ;; esac
case "$needed" in *"[libstdc++.so"*) runtime_depends="$runtime_depends, libstdc++6" ;; esac
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@INSTALLED_SIZE@/$installed_size/" -e "s/@RUNTIME_DEPENDS@/$runtime_depends/" \
    packaging/debian/control.in > "$root/DEBIAN/control"
(cd "$root" && find usr -type f -exec md5sum {} + | sort -k 2) > "$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"

mkdir -p dist
output="dist/${package}_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$output" >&2
echo "$output"
