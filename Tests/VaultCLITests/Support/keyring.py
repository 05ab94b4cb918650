#!/usr/bin/env python3
"""Kernel keyrings for the tests of vault's login sessions (Scenarios/login-keyring.txt).

A "login" of a test is a session keyring of its own: a named keyring in the
user keyring that the processes of that login join (as pam_keyinit gives a
real login one), so tests never see each other's keys or the machine's.

    keyring.py new NAME              make the keyring NAME (joinable by this user)
    keyring.py remove NAME           invalidate it and what it holds
    keyring.py join NAME PROG ARG..  run PROG in the session keyring NAME
    keyring.py blocked PROG ARG..    run PROG with add_key, request_key and keyctl refused
                                     (EPERM), as a container's seccomp filter does
    keyring.py perm                  print the permissions of vault's session key in this login
    keyring.py id                    print its id
    keyring.py read-id ID            print the payload of key ID: exit 3 when it may not be read
    keyring.py count                 how many vault session keys this login holds
    keyring.py scan DIR              exit 1 when a file under DIR holds the session key's material

Exit 2 when the login holds no vault session key.
"""
import ctypes
import os
import platform
import struct
import sys

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
NUMBERS = {"x86_64": (248, 249, 250), "aarch64": (217, 218, 219)}
ADD_KEY, REQUEST_KEY, KEYCTL = NUMBERS[platform.machine()]
SESSION, USER = -3, -4
GET_KEYRING_ID, JOIN, SETPERM, DESCRIBE, LINK, READ, INVALIDATE = 0, 1, 5, 6, 8, 11, 21
PREFIX = "vault:session:"


def keyctl(*args):
    result = libc.syscall(KEYCTL, *[ctypes.c_long(a) if isinstance(a, int) else a for a in args])
    if result < 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
    return result


def read(key):
    size = keyctl(READ, key, None, 0)
    buffer = ctypes.create_string_buffer(size)
    keyctl(READ, key, buffer, size)
    return buffer.raw[:size]


def describe(key):
    buffer = ctypes.create_string_buffer(512)
    keyctl(DESCRIBE, key, buffer, 512)
    kind, _uid, _gid, perm, description = buffer.value.decode().split(";", 4)
    return kind, int(perm, 16), description


def session_keys():
    """The vault session keys linked in this login's session keyring."""
    ring = keyctl(GET_KEYRING_ID, SESSION, 0)
    ids = struct.unpack("%di" % (len(read(ring)) // 4), read(ring))
    found = []
    for key in ids:
        try:
            kind, perm, description = describe(key)
        except OSError:
            continue
        if kind == "user" and description.startswith(PREFIX):
            found.append((key, perm))
    return found


def the_key():
    keys = session_keys()
    if not keys:
        print("no vault session key in this login", file=sys.stderr)
        sys.exit(2)
    return keys[0]


def block_keyrings():
    machine = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}[platform.machine()]
    errno_eperm = 0x00050000 | 1
    allow = 0x7FFF0000
    program = [
        (0x20, 0, 0, 4), (0x15, 1, 0, machine), (0x06, 0, 0, allow),  # another architecture: allow
        (0x20, 0, 0, 0),
        (0x15, 3, 0, ADD_KEY), (0x15, 2, 0, REQUEST_KEY), (0x15, 1, 0, KEYCTL),
        (0x06, 0, 0, allow), (0x06, 0, 0, errno_eperm),
    ]
    filters = b"".join(struct.pack("HBBI", *instruction) for instruction in program)
    buffer = ctypes.create_string_buffer(filters)
    fprog = struct.pack("HxxxxxxQ", len(program), ctypes.addressof(buffer))
    if libc.prctl(38, 1, 0, 0, 0) != 0 or libc.prctl(22, 2, ctypes.c_char_p(fprog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "seccomp")


def main(args):
    command = args[0]
    if command == "new":
        # Joining makes it (as this process's session keyring, so possessed here); the user may then
        # view, read and search it (to join it), and the user keyring holds it while no process does.
        ring = keyctl(JOIN, args[1].encode())
        keyctl(SETPERM, ring, 0x3F0B0000)
        keyctl(LINK, ring, USER)
    elif command == "remove":
        ring = libc.syscall(KEYCTL, ctypes.c_long(10), ctypes.c_long(USER), b"keyring", args[1].encode(), ctypes.c_long(0))
        if ring > 0:
            keyctl(INVALIDATE, ring)
    elif command == "join":
        keyctl(JOIN, args[1].encode())
        os.execv(args[2], args[2:])
    elif command == "blocked":
        block_keyrings()
        os.execv(args[1], args[1:])
    elif command == "perm":
        print("%08x" % the_key()[1])
    elif command == "id":
        print(the_key()[0])
    elif command == "read-id":
        try:
            sys.stdout.write(read(int(args[1])).decode())
        except OSError as error:
            print("cannot read key %s: %s" % (args[1], error.strerror), file=sys.stderr)
            sys.exit(3)
    elif command == "count":
        print(len(session_keys()))
    elif command == "scan":
        token = read(the_key()[0])
        material = bytes.fromhex(token.decode()[len("vs1_"):])
        needles = [token, material, material[16:]]
        for directory, _dirs, files in os.walk(args[1]):
            for name in files:
                path = os.path.join(directory, name)
                try:
                    with open(path, "rb") as handle:
                        data = handle.read()
                except OSError:
                    continue
                if any(needle in data for needle in needles):
                    print("session key material in %s" % path, file=sys.stderr)
                    sys.exit(1)
    else:
        sys.exit("unknown command %s" % command)


main(sys.argv[1:])
