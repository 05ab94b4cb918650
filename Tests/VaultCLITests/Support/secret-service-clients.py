#!/usr/bin/python3
"""Real clients of vault's Secret Service provider, run by SecretServiceProviderTests inside a
private session bus (dbus-run-session) whose service directory starts the built `vault
secret-service serve` by D-Bus activation.

    secret-service-clients.py SCENARIO...

Each scenario asserts what the clients see and prints "ok SCENARIO"; the first failure raises (exit 1).
secret-tool (libsecret), python3-secretstorage and python3-keyring are Debian's; the calls of
Chromium 150, go-keyring and Evolution are scripted with jeepney as those programs make them.
"""
import os
import subprocess
import sys
import time

# This directory holds keyring.py, the tests' kernel keyring helper: Debian's keyring module is meant.
del sys.path[0]

from jeepney import DBusAddress, new_method_call
from jeepney.bus_messages import MatchRule, message_bus
from jeepney.io.blocking import open_dbus_connection
from jeepney.wrappers import DBusErrorResponse, unwrap_msg

NAME = "org.freedesktop.secrets"
SERVICE = DBusAddress("/org/freedesktop/secrets", bus_name=NAME, interface="org.freedesktop.Secret.Service")
LOGIN = "/org/freedesktop/secrets/collection/login"
DEFAULT_ALIAS = "/org/freedesktop/secrets/aliases/default"
SESSION_COLLECTION = "/org/freedesktop/secrets/collection/session"


def call(conn, address, method, signature=None, body=()):
    return unwrap_msg(conn.send_and_get_reply(new_method_call(address, method, signature, body), timeout=10))


def at(path, interface):
    return DBusAddress(path, bus_name=NAME, interface=interface)


def prop(conn, path, interface, name):
    return call(conn, at(path, "org.freedesktop.DBus.Properties"), "Get", "ss", (interface, name))[0][1]


def has_owner(conn):
    return unwrap_msg(conn.send_and_get_reply(message_bus.NameHasOwner(NAME), timeout=10))[0]


def plain_session(conn):
    return call(conn, SERVICE, "OpenSession", "sv", ("plain", ("s", "")))[1]


def create(conn, session, collection, label, attributes, secret, replace=True):
    properties = {"org.freedesktop.Secret.Item.Label": ("s", label),
                  "org.freedesktop.Secret.Item.Attributes": ("a{ss}", attributes)}
    return call(conn, at(collection, "org.freedesktop.Secret.Collection"), "CreateItem", "a{sv}(oayays)b",
                (properties, (session, b"", secret, "text/plain"), replace))[0]


def vault(*arguments):
    return subprocess.run(["vault", *arguments], capture_output=True)


def secret_tool(*arguments, stdin=None):
    return subprocess.run(["secret-tool", *arguments], input=stdin, capture_output=True, timeout=30)


def expect(condition, what):
    if not condition:
        raise AssertionError(what)


def no_provider_before_first_call():
    conn = open_dbus_connection(bus="SESSION")
    activatable = unwrap_msg(conn.send_and_get_reply(message_bus.ListActivatableNames(), timeout=10))[0]
    expect(NAME in activatable, "the activation file is not seen by the bus")
    expect(not has_owner(conn), "a provider runs before any call")
    call(conn, SERVICE, "ReadAlias", "s", ("default",))
    expect(has_owner(conn), "the first call did not start the provider")


def secret_tool_store_lookup_search_clear():
    expect(secret_tool("store", "--label=First", "service", "st", "username", "ann", stdin=b"one").returncode == 0, "store failed")
    expect(secret_tool("lookup", "service", "st", "username", "ann").stdout == b"one", "lookup did not read what was stored")
    # Replace semantics: the same attributes store over the item, never beside it.
    expect(secret_tool("store", "--label=Second", "service", "st", "username", "ann", stdin=b"two").returncode == 0, "store again failed")
    expect(secret_tool("lookup", "service", "st", "username", "ann").stdout == b"two", "the second store did not replace")
    found = secret_tool("search", "--all", "service", "st").stdout.decode()
    expect(found.count("label = ") == 1 and "label = Second" in found, "search shows %r" % found)
    expect(vault("get", "-s", "st", "-a", "ann", "--group", "desktop").stdout == b"two", "vault get does not read the item")
    # Binary bytes come back as stored.
    binary = bytes(range(1, 256)) + b"\x00\xff"
    expect(secret_tool("store", "--label=Binary", "service", "bin", "username", "b", stdin=binary).returncode == 0, "binary store failed")
    expect(secret_tool("lookup", "service", "bin", "username", "b").stdout == binary, "binary secret changed on the way")
    expect(secret_tool("clear", "service", "st", "username", "ann").returncode == 0, "clear failed")
    expect(secret_tool("lookup", "service", "st", "username", "ann").returncode != 0, "lookup finds a cleared item")
    expect(vault("get", "-s", "st", "-a", "ann", "--group", "desktop").returncode == 44, "vault still has the cleared item")


def secretstorage_over_dh():
    import secretstorage
    conn = secretstorage.dbus_init()
    collection = secretstorage.get_default_collection(conn)
    expect(collection.collection_path == DEFAULT_ALIAS, "secretstorage opened %s" % collection.collection_path)
    expect(not collection.is_locked(), "the collection is locked")
    collection.unlock()
    collection.create_item("ss item", {"service": "ss", "username": "sue"}, b"dh-secret", replace=True)
    items = list(collection.search_items({"service": "ss"}))
    expect(len(items) == 1 and items[0].get_secret() == b"dh-secret", "secretstorage read back %r" % items)
    expect(items[0].session.encrypted, "secretstorage fell back to a plain session")
    expect(vault("get", "-s", "ss", "-a", "sue", "--group", "desktop").stdout == b"dh-secret", "vault does not hold it")


def keyring_set_get():
    from keyring.backends.SecretService import Keyring
    backend = Keyring()
    backend.set_password("svc", "bob", "kr-secret")
    expect(backend.get_password("svc", "bob") == "kr-secret", "keyring read back something else")
    expect(vault("get", "-s", "svc", "-a", "bob", "--group", "desktop").stdout == b"kr-secret", "vault get -s svc -a bob differs")
    backend.delete_password("svc", "bob")
    expect(backend.get_password("svc", "bob") is None, "keyring still finds the deleted password")


def chromium_150():
    conn = open_dbus_connection(bus="SESSION")
    session = plain_session(conn)
    call(conn, SERVICE, "Unlock", "ao", ([DEFAULT_ALIAS],))
    create(conn, session, DEFAULT_ALIAS, "Chromium Safe Storage", {"application": "chromium"}, b"os-crypt-key")
    items = call(conn, at(DEFAULT_ALIAS, "org.freedesktop.Secret.Collection"), "SearchItems", "a{ss}", ({"application": "chromium"},))[0]
    expect(len(items) == 1, "Chromium finds %r" % items)
    # The item is never unlocked on its own: its Locked follows the collection.
    expect(prop(conn, items[0], "org.freedesktop.Secret.Item", "Locked") is False, "the item reads as locked")
    secret = call(conn, at(items[0], "org.freedesktop.Secret.Item"), "GetSecret", "o", (session,))[0]
    expect(bytes(secret[2]) == b"os-crypt-key", "Item.GetSecret gave %r" % (secret,))


def evolution_alias_path():
    conn = open_dbus_connection(bus="SESSION")
    expect(call(conn, SERVICE, "ReadAlias", "s", ("default",))[0] == LOGIN, "ReadAlias default")
    expect(call(conn, SERVICE, "ReadAlias", "s", ("nonesuch",))[0] == "/", "an unknown alias names an object")
    label = prop(conn, DEFAULT_ALIAS, "org.freedesktop.Secret.Collection", "Label")
    expect(label == "Login", "the alias's label is %r" % label)
    collections = prop(conn, "/org/freedesktop/secrets", "org.freedesktop.Secret.Service", "Collections")
    expect(collections == [LOGIN, SESSION_COLLECTION], "Collections is %r" % collections)


def go_keyring_login_path():
    conn = open_dbus_connection(bus="SESSION")
    session = plain_session(conn)
    path = create(conn, session, LOGIN, "Password for 'gh' on 'github.com'", {"service": "github.com", "username": "gh"}, b"gho_token")
    found = call(conn, at(LOGIN, "org.freedesktop.Secret.Collection"), "SearchItems", "a{ss}", ({"service": "github.com", "username": "gh"},))[0]
    expect(found == [path], "go-keyring finds %r, stored %r" % (found, path))
    secrets = call(conn, SERVICE, "GetSecrets", "aoo", (found, session))[0]
    expect(bytes(secrets[path][2]) == b"gho_token", "GetSecrets gave %r" % (secrets,))
    expect(vault("get", "-s", "github.com", "-a", "gh", "--group", "desktop").stdout == b"gho_token", "vault does not hold gh's token")


def empty_search_matches_nothing():
    conn = open_dbus_connection(bus="SESSION")
    create(conn, plain_session(conn), LOGIN, "there", {"service": "there", "username": "u"}, b"s")
    unlocked, locked = call(conn, SERVICE, "SearchItems", "a{ss}", ({},))
    expect(unlocked == [] and locked == [], "an empty search matched %r %r" % (unlocked, locked))
    expect(call(conn, at(LOGIN, "org.freedesktop.Secret.Collection"), "SearchItems", "a{ss}", ({},))[0] == [], "collection search")


def session_of_another_connection():
    owner = open_dbus_connection(bus="SESSION")
    thief = open_dbus_connection(bus="SESSION")
    session = plain_session(owner)
    path = create(owner, session, LOGIN, "mine", {"service": "mine", "username": "me"}, b"not-yours")
    for attempt in (lambda: call(thief, SERVICE, "GetSecrets", "aoo", ([path], session)),
                    lambda: call(thief, at(path, "org.freedesktop.Secret.Item"), "GetSecret", "o", (session,)),
                    lambda: create(thief, session, LOGIN, "x", {"service": "x"}, b"x")):
        try:
            attempt()
        except DBusErrorResponse as error:
            expect(error.name == "org.freedesktop.Secret.Error.NoSession", "refused as %s" % error.name)
        else:
            raise AssertionError("another connection used the session")
    # Its owner gone, the session is closed.
    owner.close()
    time.sleep(0.3)
    try:
        call(thief, SERVICE, "GetSecrets", "aoo", ([path], session))
        raise AssertionError("the session outlived its connection")
    except DBusErrorResponse as error:
        expect(error.name == "org.freedesktop.Secret.Error.NoSession", "refused as %s" % error.name)


def locked_vault():
    conn = open_dbus_connection(bus="SESSION")
    expect(prop(conn, LOGIN, "org.freedesktop.Secret.Collection", "Locked") is True, "the collection reads as unlocked")
    expect(call(conn, SERVICE, "SearchItems", "a{ss}", ({"service": "svc"},)) == ([], []), "a locked search found items")
    session = plain_session(conn)
    try:
        create(conn, session, LOGIN, "x", {"service": "x"}, b"x")
        raise AssertionError("CreateItem stored into a locked vault")
    except DBusErrorResponse as error:
        expect(error.name == "org.freedesktop.Secret.Error.IsLocked", "refused as %s" % error.name)
    unlocked, prompt = call(conn, SERVICE, "Unlock", "ao", ([LOGIN],))
    expect(unlocked == [] and prompt != "/", "Unlock gave %r %r" % (unlocked, prompt))
    rule = MatchRule(type="signal", interface="org.freedesktop.Secret.Prompt", member="Completed", path=prompt)
    unwrap_msg(conn.send_and_get_reply(message_bus.AddMatch(rule), timeout=10))
    started = time.monotonic()
    with conn.filter(rule) as queue:
        call(conn, at(prompt, "org.freedesktop.Secret.Prompt"), "Prompt", "s", ("",))
        completed = conn.recv_until_filtered(queue, timeout=5)
    expect(completed.body[0] is True, "the prompt was not dismissed: %r" % (completed.body,))
    expect(time.monotonic() - started < 2, "the prompt took %.1f s" % (time.monotonic() - started))


def unlock_through_prompt_program():
    """With secret-service-prompt naming a program, Unlock asks through it: the passphrase it prints
    unlocks the vault (a session kept in the login's keyring), and Completed says so."""
    conn = open_dbus_connection(bus="SESSION")
    expect(prop(conn, LOGIN, "org.freedesktop.Secret.Collection", "Locked") is True, "the collection reads as unlocked")
    unlocked, prompt = call(conn, SERVICE, "Unlock", "ao", ([LOGIN],))
    expect(unlocked == [] and prompt != "/", "Unlock gave %r %r" % (unlocked, prompt))
    rule = MatchRule(type="signal", interface="org.freedesktop.Secret.Prompt", member="Completed", path=prompt)
    unwrap_msg(conn.send_and_get_reply(message_bus.AddMatch(rule), timeout=10))
    with conn.filter(rule) as queue:
        call(conn, at(prompt, "org.freedesktop.Secret.Prompt"), "Prompt", "s", ("",))
        completed = conn.recv_until_filtered(queue, timeout=10)
    expect(completed.body[0] is False and list(completed.body[1][1]) == [LOGIN], "the prompt completed as %r" % (completed.body,))
    expect(prop(conn, LOGIN, "org.freedesktop.Secret.Collection", "Locked") is False, "the collection is still locked")
    found = call(conn, SERVICE, "SearchItems", "a{ss}", ({"service": "svc"},))[0]
    expect(len(found) == 1, "the unlocked search found %r" % found)
    asked = open(os.path.join(os.environ["HOME"], "asked")).read()
    expect(asked.startswith("Passphrase for "), "the program was asked %r" % asked)


def idle_exit_and_reactivation():
    conn = open_dbus_connection(bus="SESSION")
    expect(secret_tool("store", "--label=Kept", "service", "kept", "username", "k", stdin=b"still-here").returncode == 0, "store failed")
    deadline = time.monotonic() + 15
    while has_owner(conn) and time.monotonic() < deadline:
        time.sleep(0.2)
    expect(not has_owner(conn), "the provider did not exit when idle")
    expect(secret_tool("lookup", "service", "kept", "username", "k").stdout == b"still-here", "re-activated provider lost the item")
    # A client holding its connection keeps the provider: it owns the name past the idle time.
    session = plain_session(conn)
    time.sleep(3)
    expect(has_owner(conn), "the provider exited while a client held a session")
    del session


def session_collection_survives_idle_exit():
    """The `session` collection (alias `session`) is kept in the login's kernel keyring, not in the
    vault: what is stored there is found again after the provider's idle exit."""
    watcher = open_dbus_connection(bus="SESSION")
    conn = open_dbus_connection(bus="SESSION")
    expect(call(conn, SERVICE, "ReadAlias", "s", ("session",))[0] == SESSION_COLLECTION, "ReadAlias('session') is not the session collection")
    session = plain_session(conn)
    path = create(conn, session, SESSION_COLLECTION, "for now", {"app": "scratch", "key": "k1"}, b"short-lived")
    expect(path.startswith(SESSION_COLLECTION + "/"), "the item is at %r" % path)
    again = create(conn, session, "/org/freedesktop/secrets/aliases/session", "for now", {"app": "scratch", "key": "k1"}, b"replaced")
    expect(again == path, "replace made a second item %r beside %r" % (again, path))
    label = prop(conn, SESSION_COLLECTION, "org.freedesktop.Secret.Collection", "Label")
    expect(label == "Session", "the session collection's label is %r" % label)
    expect(vault("list", "--group", "desktop").stdout.find(b"scratch") < 0, "the session item went into the vault")
    conn.close()
    deadline = time.monotonic() + 15
    while has_owner(watcher) and time.monotonic() < deadline:
        time.sleep(0.2)
    expect(not has_owner(watcher), "the provider did not exit when idle")
    conn = open_dbus_connection(bus="SESSION")
    session = plain_session(conn)
    unlocked, locked = call(conn, SERVICE, "SearchItems", "a{ss}", ({"app": "scratch"},))
    expect(unlocked == [path] and locked == [], "after the idle exit the search finds %r %r" % (unlocked, locked))
    secrets = call(conn, SERVICE, "GetSecrets", "aoo", (unlocked, session))[0]
    expect(bytes(secrets[path][2]) == b"replaced", "GetSecrets gave %r" % (secrets,))
    attributes = prop(conn, path, "org.freedesktop.Secret.Item", "Attributes")
    expect(attributes == {"app": "scratch", "key": "k1"}, "the item's attributes are %r" % attributes)
    call(conn, at(path, "org.freedesktop.Secret.Item"), "Delete")
    unlocked, _ = call(conn, SERVICE, "SearchItems", "a{ss}", ({"app": "scratch"},))
    expect(unlocked == [], "a deleted session item is still found")


def set_attributes():
    """An item's Attributes set through org.freedesktop.DBus.Properties: a login item's attributes that
    leave its vault service and account as they are change in place; ones that would name another
    vault item are refused with NotSupported; a session item's change freely."""
    conn = open_dbus_connection(bus="SESSION")
    session = plain_session(conn)
    path = create(conn, session, LOGIN, "attrs", {"service": "attr-svc", "username": "u", "extra": "1"}, b"kept")
    properties = at(path, "org.freedesktop.DBus.Properties")
    item = "org.freedesktop.Secret.Item"
    call(conn, properties, "Set", "ssv", (item, "Attributes", ("a{ss}", {"service": "attr-svc", "username": "u", "extra": "2"})))
    attributes = prop(conn, path, item, "Attributes")
    expect(attributes == {"service": "attr-svc", "username": "u", "extra": "2"}, "the attributes are %r" % attributes)
    found = call(conn, SERVICE, "SearchItems", "a{ss}", ({"extra": "2"},))[0]
    expect(found == [path], "the search by the new attribute finds %r" % found)
    try:
        call(conn, properties, "Set", "ssv", (item, "Attributes", ("a{ss}", {"service": "other-svc", "username": "u"})))
        expect(False, "attributes naming another vault item were taken")
    except DBusErrorResponse as error:
        expect(error.name == "org.freedesktop.DBus.Error.NotSupported", "refused with %s" % error.name)
    expect(vault("get", "-s", "attr-svc", "-a", "u", "--group", "desktop").stdout == b"kept", "the vault item moved or changed")
    scratch = create(conn, session, SESSION_COLLECTION, "scratch", {"app": "a"}, b"s")
    call(conn, at(scratch, "org.freedesktop.DBus.Properties"), "Set", "ssv", (item, "Attributes", ("a{ss}", {"app": "b"})))
    found = call(conn, SERVICE, "SearchItems", "a{ss}", ({"app": "b"},))[0]
    expect(found == [scratch], "the session item's new attributes find %r" % found)


def git_credential_libsecret():
    """git-credential-libsecret, built from Debian's git sources (package git's contrib), as git's
    credential.helper: approve stores, fill reads, reject erases, all through the provider."""
    source = "/usr/share/doc/git/contrib/credential/libsecret/git-credential-libsecret.c"
    helper = os.path.join(os.environ["HOME"], "git-credential-libsecret")
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libsecret-1", "glib-2.0"], capture_output=True, check=True).stdout.split()
    subprocess.run(["cc", "-o", helper, source, *[f.decode() for f in flags]], check=True)

    def git(action, text):
        return subprocess.run(["git", "-c", "credential.helper=", "-c", "credential.helper=" + helper, "credential", action],
                              input=text.encode(), capture_output=True, timeout=30, env=dict(os.environ, GIT_TERMINAL_PROMPT="0"))

    request = "protocol=https\nhost=git.example.com\n\n"
    expect(git("approve", "protocol=https\nhost=git.example.com\nusername=dev\npassword=ghp_secret\n\n").returncode == 0, "approve failed")
    filled = git("fill", request)
    expect(b"username=dev\n" in filled.stdout and b"password=ghp_secret\n" in filled.stdout, "fill gave %r %r" % (filled.stdout, filled.stderr))
    stored = vault("get", "-s", "https://git.example.com", "-a", "dev", "--group", "desktop")
    expect(stored.stdout == b"ghp_secret", "vault holds %r %r" % (stored.stdout, stored.stderr))
    expect(git("reject", "protocol=https\nhost=git.example.com\nusername=dev\npassword=ghp_secret\n\n").returncode == 0, "reject failed")
    expect(b"password=" not in git("fill", request).stdout, "fill still finds the rejected credential")
    expect(vault("get", "-s", "https://git.example.com", "-a", "dev", "--group", "desktop").returncode == 44, "vault kept it")


def calls_racing_idle_exit():
    """With secret-service-idle = 0 the provider exits as soon as no client is left, so lookups four at
    a time meet a provider running, one shutting down (the name released, its queue answered) or
    a new one: every one must be answered, with the secret."""
    expect(secret_tool("store", "--label=Race", "service", "race", "username", "r", stdin=b"raced").returncode == 0, "store failed")
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda _: secret_tool("lookup", "service", "race", "username", "r"), range(60)))
    failures = [result for result in results if result.stdout != b"raced"]
    expect(not failures, "%d of 60 lookups failed: %r" % (len(failures), failures[:2]))


def call_during_shutdown():
    """Run with secret-service-idle = 0 and VAULT_TEST_SHUTDOWN_PAUSE_MS = 1000: the first client leaves,
    the provider pauses before releasing the name; a call made then is queued, answered after the
    release, and the provider takes the name back to serve that client on."""
    first = open_dbus_connection(bus="SESSION")
    call(first, SERVICE, "ReadAlias", "s", ("default",))
    owner = unwrap_msg(first.send_and_get_reply(message_bus.GetNameOwner(NAME), timeout=10))[0]
    first.close()
    time.sleep(0.3)
    second = open_dbus_connection(bus="SESSION")
    expect(call(second, SERVICE, "ReadAlias", "s", ("default",))[0] == LOGIN, "the call during shutdown")
    session = plain_session(second)
    now = unwrap_msg(second.send_and_get_reply(message_bus.GetNameOwner(NAME), timeout=10))[0]
    expect(now == owner, "another provider (%s, not %s) answered the call after the one during shutdown" % (now, owner))
    del session


def backend_refuses_vault_provider():
    """vault's own --backend secret-service finds vault on the bus: it refuses, when its call started the
    provider (activation) and when the provider already ran."""
    conn = open_dbus_connection(bus="SESSION")
    for round in ("activated by this call", "already running"):
        listed = vault("--backend", "secret-service", "list")
        errors = [line for line in listed.stderr.decode().splitlines() if line.startswith("vault: error:")]
        expect(listed.returncode == 1 and len(errors) == 1 and "the desktop keyring on this bus is vault itself" in errors[0],
               "%s: exit %d, %r" % (round, listed.returncode, listed.stderr))
        expect(has_owner(conn), "%s: no provider ran" % round)


def name_held_by_gnome_keyring():
    conn = open_dbus_connection(bus="SESSION")
    daemon = subprocess.Popen(["gnome-keyring-daemon", "--foreground", "--unlock", "--components=secrets"],
                              stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    daemon.stdin.write(b"vault-test-keyring")
    daemon.stdin.close()
    try:
        deadline = time.monotonic() + 20
        while not has_owner(conn) and time.monotonic() < deadline:
            time.sleep(0.1)
        expect(has_owner(conn), "gnome-keyring-daemon did not take the name")
        served = vault("secret-service", "serve")
        lines = served.stderr.decode().splitlines()
        expect(served.returncode == 1, "serve exited %d: %r" % (served.returncode, lines))
        expect(lines[0].startswith("vault: error: org.freedesktop.secrets is already served by ") and "gnome-keyring-daemon" in lines[0]
               and "pid %d" % daemon.pid in lines[0], "serve said %r" % lines)
        status = vault("secret-service", "status")
        expect("held by another program: " in status.stderr.decode() and "gnome-keyring-daemon" in status.stderr.decode(),
               "status said %r" % status.stderr)
    finally:
        daemon.terminate()
        daemon.wait()


SCENARIOS = {name: function for name, function in globals().items()
             if callable(function) and function.__module__ == "__main__" and name not in
             ("call", "at", "prop", "has_owner", "plain_session", "create", "vault", "secret_tool", "expect",
              "open_dbus_connection", "new_method_call", "unwrap_msg", "DBusAddress", "MatchRule", "DBusErrorResponse")}

if __name__ == "__main__":
    for scenario in sys.argv[1:]:
        SCENARIOS[scenario.replace("-", "_")]()
        print("ok", scenario, flush=True)
