#!/usr/bin/env python3
"""Runs the README's ```sh blocks in order, as typed at a terminal, in the current HOME.

Each block runs in its own bash on a pseudo-terminal (python's pty module), in HOME, so vault
prompts as it does for a person; the prompts are answered as a person would: the passphrase at
passphrase prompts, a secret at secret prompts, y at [y/N]. Files carry over from block to block;
exports do not (each block is one context: the laptop, a job, a runner). Every line must exit 0,
unless its comment starts with "exit N", which it must exit with.

A block whose first line (after a #! line) is "# not run by the README test: REASON" is skipped, and the skip is
printed with its reason. Exits 1 at the first line that fails, printing the block's output.

usage: readme-blocks.py README
"""
import os
import pty
import re
import select
import sys

PASSPHRASE = "readme tour passphrase"
SKIP = re.compile(r"^# not run by the README test: (.+)$")
EXPECTED_EXIT = re.compile(r"^(.*?)\s+#\s*exit (\d+)\b")
ANSWERS = [
    (re.compile(rb"[Pp]assphrase[^\n]*: $"), PASSPHRASE),
    (re.compile(rb"Secret( \(again\))?: $"), "readme-secret-value"),
    (re.compile(rb"\[y/N\] $"), "y"),
]


def blocks(readme):
    lines = open(readme, encoding="utf-8").read().split("\n")
    found, inside, start = [], False, 0
    for number, line in enumerate(lines, 1):
        if not inside and line.strip() == "```sh":
            inside, start, body = True, number, []
        elif inside and line.strip() == "```":
            inside = False
            found.append((start, body))
        elif inside:
            body.append(line)
    return found


def script(body):
    """The block as a bash script that checks every line's exit status."""
    out = ["check() { if [ \"$1\" != \"$2\" ]; then printf '\\nREADME-LINE-FAILED: exit %s, expected %s: %s\\n' \"$1\" \"$2\" \"$3\"; exit 1; fi; }"]
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


def run_on_terminal(text):
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp("bash", ["bash", "--noprofile", "--norc", "-c", text])
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
    for start, body in blocks(readme):
        first = body[1] if body and body[0].startswith("#!") and len(body) > 1 else (body[0] if body else "")
        skip = SKIP.match(first)
        if skip:
            print(f"skipped the README block at line {start}: {skip.group(1)}")
            continue
        status, output = run_on_terminal(script(body))
        ran += 1
        if status != 0:
            print(f"the README block at line {start} failed (exit {status}):\n{output}")
            return 1
        print(f"ran the README block at line {start}")
    print(f"ran {ran} README blocks")
    return 0


if __name__ == "__main__":
    sys.exit(main())
