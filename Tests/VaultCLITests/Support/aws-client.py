"""botocore resolves credentials from profiles whose credential_process is vault aws-credential,
and the AWS CLI signs a call to a moto server on loopback with them. Run by AWSHelperTests with
the test venv's Python, the sandbox's HOME and PATH, and VAULT_KEY_FILE set:

    aws-client.py CASE

CASE: profiles, locked, moto, and terminal (botocore on a pty, with a vault that opens with a
passphrase: vault does not ask, though a terminal is there). Prints "ok" when the case holds; a
failed check exits non-zero with what was seen.
"""
import datetime, json, os, pty, select, signal, subprocess, sys, time

import botocore.exceptions
import botocore.session

case = sys.argv[1]
home = os.environ["HOME"]
runs = f"{home}/runs"


def vault(*args, stdin=b""):
    run = subprocess.run(["vault", *args], input=stdin, capture_output=True)
    assert run.returncode == 0, (args, run.stderr)


def add(profile, secret, expires=None):
    vault("add", "-s", "aws:" + profile, "-a", "me", *(["--expires", expires] if expires else []),
          stdin=json.dumps(secret).encode())


def iso(minutes):
    moment = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(minutes=minutes)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def counted(profile):
    """A credential_process that notes each run (quoted arguments, split as botocore splits them)."""
    return f"/bin/sh -c \"echo {profile} >> '{runs}'; exec vault aws-credential {profile}\""


with open(f"{home}/aws-config", "w") as config:
    for profile in ["static", "session", "soon", "later", "missing"]:
        config.write(f"[profile {profile}]\ncredential_process = {counted(profile)}\n")
os.environ["AWS_CONFIG_FILE"] = f"{home}/aws-config"
os.environ["AWS_SHARED_CREDENTIALS_FILE"] = f"{home}/no-credentials"
for variable in ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE"]:
    os.environ.pop(variable, None)


def credentials(profile):
    return botocore.session.Session(profile=profile).get_credentials()


def run_count(profile):
    return open(runs).read().split().count(profile) if os.path.exists(runs) else 0


if case == "profiles":
    add("static", {"AccessKeyId": "AKIDSTATIC", "SecretAccessKey": "static/secret+key"})
    add("session", {"AccessKeyId": "ASIASESSION", "SecretAccessKey": "session-secret", "SessionToken": "tok\"en=="})
    add("soon", {"AccessKeyId": "ASIASOON", "SecretAccessKey": "soon-secret", "SessionToken": "soon-token"}, iso(12))
    add("later", {"AccessKeyId": "ASIALATER", "SecretAccessKey": "later-secret", "SessionToken": "later-token"}, iso(120))

    frozen = credentials("static").get_frozen_credentials()
    assert (frozen.access_key, frozen.secret_key, frozen.token) == ("AKIDSTATIC", "static/secret+key", None), frozen
    frozen = credentials("session").get_frozen_credentials()
    assert (frozen.access_key, frozen.token) == ("ASIASESSION", "tok\"en=="), frozen

    # An expiry 12 minutes away is inside botocore's 15-minute refresh window: it runs vault on
    # every access. Two hours away: once, however often the credentials are read.
    soon, later = credentials("soon"), credentials("later")
    for _ in range(3):
        assert soon.get_frozen_credentials().access_key == "ASIASOON"
        assert later.get_frozen_credentials().access_key == "ASIALATER"
    assert run_count("soon") >= 3, open(runs).read()
    assert run_count("later") == 1, open(runs).read()
    assert run_count("static") == 1, open(runs).read()

    try:
        credentials("missing").get_frozen_credentials()
        raise SystemExit("no error for a missing item")
    except botocore.exceptions.CredentialRetrievalError as error:
        assert 'vault: error: no item for service "aws:missing"' in str(error), str(error)
elif case == "locked":
    add("static", {"AccessKeyId": "AKIDSTATIC", "SecretAccessKey": "static-secret"})
    os.environ.pop("VAULT_KEY_FILE")
    try:
        credentials("static").get_frozen_credentials()
        raise SystemExit("no error for a locked vault")
    except botocore.exceptions.CredentialRetrievalError as error:
        message = str(error)
        assert "vault: error: the vault is locked" in message and "static-secret" not in message, message
elif case == "terminal":
    with open(os.open(f"{home}/pass", os.O_WRONLY | os.O_CREAT, 0o600), "w") as file:
        file.write("pass-phrase-1\n")
    os.environ["VAULT_PATH"] = f"{home}/pp.vault"
    os.environ.pop("VAULT_KEY_FILE")
    vault("init", "--passphrase-file", f"{home}/pass", "--kdf-cost", "testing")
    vault("--passphrase-file", f"{home}/pass", "add", "-s", "aws:static", "-a", "me",
          stdin=b'{"AccessKeyId":"AKIDSTATIC","SecretAccessKey":"static-secret"}')
    program = ("import botocore.session, botocore.exceptions\n"
               "try:\n    botocore.session.Session(profile='static').get_credentials().get_frozen_credentials()\n"
               "    print('resolved')\n"
               "except botocore.exceptions.CredentialRetrievalError as error:\n    print('failed:', error)\n")
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(sys.executable, [sys.executable, "-c", program])
    shown, deadline = b"", time.monotonic() + 60
    while time.monotonic() < deadline and b"Passphrase for" not in shown:
        ready, _, _ = select.select([fd], [], [], 1)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    if b"Passphrase for" in shown:
        os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    text = shown.decode(errors="replace")
    assert "Passphrase for" not in text and "failed:" in text and "vault: error: the vault is locked" in text, text
elif case == "moto":
    from moto.server import ThreadedMotoServer

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    endpoint = f"http://127.0.0.1:{server.get_host_and_port()[1]}"
    admin = botocore.session.Session()
    admin.set_credentials("AKIDADMIN", "admin-secret")
    iam = admin.create_client("iam", region_name="us-east-1", endpoint_url=endpoint)
    iam.create_user(UserName="vault-user")
    key = iam.create_access_key(UserName="vault-user")["AccessKey"]
    add("static", {"AccessKeyId": key["AccessKeyId"], "SecretAccessKey": key["SecretAccessKey"]})
    # The AWS CLI signs the call with the keys vault prints; moto names the user they belong to.
    run = subprocess.run([sys.executable, "-m", "awscli", "sts", "get-caller-identity", "--profile", "static",
                          "--endpoint-url", endpoint, "--region", "us-east-1", "--output", "json"],
                         capture_output=True, timeout=120)
    assert run.returncode == 0, run.stderr
    identity = json.loads(run.stdout)
    assert identity["Arn"].endswith(":user/vault-user"), identity
    server.stop()
print("ok")
