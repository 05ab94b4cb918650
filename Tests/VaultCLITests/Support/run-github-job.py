#!/usr/bin/env python3
"""Runs the first job of a GitHub Actions workflow the way a runner does, on
this machine: each step's `run:` under `bash -eo pipefail`, with the job's and
the step's `env:` (`${{ secrets.NAME }}` filled from --secret NAME=VALUE), and
$GITHUB_ENV / $GITHUB_PATH carried to the steps after it. Steps with `uses:`
and the step named "Install vault" are skipped: the caller puts vault on PATH.

    run-github-job.py WORKFLOW.yml [--secret NAME=VALUE]... [--dump-env FILE]

Exit status: 0 when every step succeeded, else the failing step's status.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

import yaml


def parse_github_env(text):
    """NAME=VALUE lines and NAME<<DELIMITER heredocs, as the runner reads them."""
    values, lines, i = {}, text.split("\n"), 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            body = []
            while i < len(lines) and lines[i] != delimiter:
                body.append(lines[i])
                i += 1
            if i == len(lines):
                raise SystemExit(f"run-github-job: unterminated heredoc for {name}")
            i += 1
            values[name] = "\n".join(body)
        elif "=" in line:
            name, value = line.split("=", 1)
            values[name] = value
    return values


def main():
    args = sys.argv[1:]
    workflow_path, secrets, dump = args[0], {}, None
    rest = args[1:]
    while rest:
        flag, value = rest[0], rest[1]
        rest = rest[2:]
        if flag == "--secret":
            name, secret = value.split("=", 1)
            secrets[name] = secret
        elif flag == "--dump-env":
            dump = value
    with open(workflow_path) as handle:
        workflow = yaml.safe_load(handle)
    job = next(iter(workflow["jobs"].values()))

    def fill(value):
        return re.sub(r"\$\{\{\s*secrets\.(\w+)\s*\}\}", lambda m: secrets[m.group(1)], str(value))

    work = tempfile.mkdtemp()
    github_env, github_path = os.path.join(work, "env"), os.path.join(work, "path")
    exported, paths = {}, []
    for step in job["steps"]:
        if "uses" in step or step.get("name") == "Install vault":
            continue
        open(github_env, "w").close()
        open(github_path, "w").close()
        env = dict(os.environ)
        env.update(exported)
        env.update({k: fill(v) for k, v in job.get("env", {}).items()})
        env.update({k: fill(v) for k, v in step.get("env", {}).items()})
        env["GITHUB_ENV"], env["GITHUB_PATH"], env["CI"], env["GITHUB_ACTIONS"] = github_env, github_path, "true", "true"
        env["PATH"] = ":".join(paths + [env["PATH"]])
        print(f"::step:: {step.get('name', step['run'])}", flush=True)
        status = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
                                env=env, stdin=subprocess.DEVNULL).returncode
        if status != 0:
            print(f"run-github-job: step failed with {status}", file=sys.stderr)
            return status
        with open(github_env) as handle:
            exported.update(parse_github_env(handle.read()))
        with open(github_path) as handle:
            paths = [line for line in handle.read().split("\n") if line] + paths
    if dump:
        with open(dump, "w") as handle:
            json.dump(exported, handle)
    return 0


if __name__ == "__main__":
    sys.exit(main())
