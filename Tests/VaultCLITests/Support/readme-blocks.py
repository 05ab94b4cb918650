#!/usr/bin/env python3
"""Runs the README's ```sh blocks in order, as typed at a terminal, in the current HOME.

Each block runs in its own bash on a pseudo-terminal (python's pty module), in HOME, so vault
prompts as it does for a person; the prompts are answered as a person would: the passphrase at
passphrase prompts, a secret at secret prompts, y at [y/N]. Files carry over from block to block;
exports do not (each block is one context: the laptop, a job, a runner). Every line must exit 0,
unless its comment starts with "exit N", which it must exit with.

A block whose first line (after a #! line) is "# not run by the README test: REASON" is skipped, and the skip is
printed with its reason. Exits 1 at the first line that fails, printing the block's output.

A block the README shows as run elsewhere (a CI job, a runner) runs here in that place's context,
given by HTML comments just above it, which GitHub does not render:
  <!-- readme-test: setup COMMANDS -->   run first, in the block's shell, each checked (the job's
                                          environment: its secret variable, its checkout)
  <!-- readme-test: under PROGRAM -->    the block's shell runs under PROGRAM, a path from the package
                                          root (scripts/with-keyring.sh: a desktop keyring); when it
                                          sets VAULT_TEST_SECRET_SERVICE_SKIP the block is skipped, saying why

usage: readme-blocks.py README
"""
import os
import pty
import re
import select
import sys

PASSPHRASE = "readme tour passphrase"
SKIP = re.compile(r"^# not run by the README test: (.+)$")
DIRECTIVE = re.compile(r"^<!-- readme-test: (setup|under) (.+) -->$")
PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
EXPECTED_EXIT = re.compile(r"^(.*?)\s+#\s*exit (\d+)\b")
ANSWERS = [
    (re.compile(rb"[Pp]assphrase[^\n]*: $"), PASSPHRASE),
    (re.compile(rb"Secret( \(again\))?: $"), "readme-secret-value"),
    (re.compile(rb"\[y/N\] $"), "y"),
]


def blocks(readme):
    """Each ```sh block: its first line's number, its lines, and the readme-test comments just above it."""
    lines = open(readme, encoding="utf-8").read().split("\n")
    found, inside, start, directives = [], False, 0, {}
    for number, line in enumerate(lines, 1):
        directive = DIRECTIVE.match(line.strip())
        if not inside and directive:
            directives.setdefault(directive.group(1), []).append(directive.group(2))
        elif not inside and line.strip() == "```sh":
            inside, start, body = True, number, []
        elif inside and line.strip() == "```":
            inside = False
            found.append((start, body, directives))
            directives = {}
        elif inside:
            body.append(line)
        elif line.strip() and not line.strip().startswith("<!--"):
            directives = {}
    return found


def script(body, setup=(), wrapped=False):
    """The block as a bash script that checks every line's exit status, after its setup."""
    out = ["check() { if [ \"$1\" != \"$2\" ]; then printf '\\nREADME-LINE-FAILED: exit %s, expected %s: %s\\n' \"$1\" \"$2\" \"$3\"; exit 1; fi; }"]
    if wrapped:
        out.append("if [ -n \"${VAULT_TEST_SECRET_SERVICE_SKIP:-}\" ]; then printf 'README-BLOCK-SKIPPED: %s\\n' \"$VAULT_TEST_SECRET_SERVICE_SKIP\"; exit 0; fi")
    for line in setup:
        quoted = "'" + line.replace("'", "'\\''") + "'"
        out.append(f"printf '$ (setup) %s\\n' {quoted}")
        out.append(f"eval {quoted}; check $? 0 {quoted}")
    for line in body:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        expected = 0
        match = EXPECTED_EXIT.match(line)
        if match:
            line, expected = match.group(1), int(match.group(2))
        quoted = "'" + line.replace("'", "'\\''") + "'"
        out.append(f"printf '$ %s\\n' {quoted}")
        out.append(f"eval {quoted}; check $? {expected} {quoted}")
    return "\n".join(out) + "\n"


def run_on_terminal(text, under=()):
    pid, fd = pty.fork()
    if pid == 0:
        wrapper = [os.path.join(PACKAGE_ROOT, program) for program in under]
        os.execvp((wrapper or ["bash"])[0], wrapper + ["bash", "--noprofile", "--norc", "-c", text])
    output, pending = b"", b""
    while True:
        ready, _, _ = select.select([fd], [], [], 120)
        if not ready:
            os.kill(pid, 9)
            output += b"\n(no output for 120 s: killed)\n"
            break
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        output += chunk
        pending = (pending + chunk)[-200:]
        for prompt, answer in ANSWERS:
            if prompt.search(pending):
                os.write(fd, (answer + "\n").encode())
                pending = b""
                break
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), output.decode("utf-8", "replace")


def main():
    readme = sys.argv[1]
    ran = 0
    for start, body, directives in blocks(readme):
        first = body[1] if body and body[0].startswith("#!") and len(body) > 1 else (body[0] if body else "")
        skip = SKIP.match(first)
        if skip:
            print(f"skipped the README block at line {start}: {skip.group(1)}")
            continue
        status, output = run_on_terminal(script(body, directives.get("setup", []), "under" in directives), directives.get("under", []))
        skipped = re.search(r"README-BLOCK-SKIPPED: ([^\r\n]+)", output)
        if status == 0 and skipped:
            print(f"skipped the README block at line {start}: {skipped.group(1)}")
            continue
        ran += 1
        if status != 0:
            print(f"the README block at line {start} failed (exit {status}):\n{output}")
            return 1
        print(f"ran the README block at line {start}" + (f" (in its context: {'; '.join(directives.get('setup', []) + directives.get('under', []))})" if directives else ""))
    print(f"ran {ran} README blocks")
    return 0


if __name__ == "__main__":
    sys.exit(main())
