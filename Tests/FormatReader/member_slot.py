#!/usr/bin/env python3
"""An independent reader of the member slots of a format v2 vault file,
written from docs/FORMAT.md ("Member slots") alone, not from vault's code, so
that a test can check that the page means what vault writes.

    member_slot.py VAULT IDENTITY_FILE

Reads the header up to the member slots, checks the header checksum, decodes
the age identity (AGE-SECRET-KEY-1..., Bech32), and tries every slot as the
page says: X25519 with the ephemeral share, HKDF-SHA256 (salt = share ||
recipient, info = "vault v1 member" || vault id), AES-256-GCM with AAD =
"member" || vault id || share. Prints one JSON object for the slot that opens:
{"slot", "name", "kind": "full", "header_mac_key", "wrap_key"} or {"slot",
"name", "kind": "scoped", "read_only", "groups": [{"id", "name", "key_check",
"lookup_key", "index_mac_key", "classes"}]}, keys as hex, with the vault's
"trust_fingerprint" (SHA-256 of the trust public key) once the trust
statement (vault id, key epoch, signing public key) checks under that key
(Ed25519). Exit 1 when no slot opens or a check fails, naming it.
"""
import hashlib
import json
import struct
import sys

from cryptography.hazmat.primitives import hashes
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

MAGIC = bytes.fromhex("895641554c540d0a")
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


class Damaged(Exception):
    pass


class Reader:
    def __init__(self, data):
        self.data, self.at = data, 0

    def take(self, n):
        if n < 0 or self.at + n > len(self.data):
            raise Damaged("the data ends early")
        out = self.data[self.at:self.at + n]
        self.at += n
        return out

    def u8(self):
        return self.take(1)[0]

    def u32(self):
        return struct.unpack(">I", self.take(4))[0]

    def u64(self):
        return struct.unpack(">Q", self.take(8))[0]

    def lengthed(self, limit):
        n = self.u32()
        if n > limit:
            raise Damaged("a length of %d exceeds %d" % (n, limit))
        return self.take(n)


def bech32_identity(text):
    """The 32-byte key of an AGE-SECRET-KEY-1... line (BIP 173 Bech32, checksum checked)."""
    text = text.lower()
    hrp, _, rest = text.rpartition("1")
    if hrp != "age-secret-key-":
        raise Damaged("not an age identity")
    values = [BECH32.index(c) for c in rest]
    chk = 1
    for v in [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp] + values:
        top = chk >> 25
        chk = (chk & 0x1FFFFFF) << 5 ^ v
        for i, g in enumerate([0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]):
            chk ^= g if (top >> i) & 1 else 0
    if chk != 1:
        raise Damaged("the identity's Bech32 checksum does not match")
    acc, bits, out = 0, 0, []
    for v in values[:-6]:
        acc, bits = (acc << 5) | v, bits + 5
        while bits >= 8:
            bits -= 8
            out.append((acc >> bits) & 0xFF)
    if len(out) != 32:
        raise Damaged("the identity is not 32 bytes")
    return bytes(out)


def team_log_head(r, vault_id, key_epoch):
    """The team log's clear part read, its chain checked (parents earlier, epochs rising, the last at
    the header's key epoch): the hash of its last entry."""
    count = r.u32()
    if not 1 <= count <= 16384:
        raise Damaged("a team log of %d entries" % count)
    epochs = {}
    head = None
    for index in range(count):
        start = r.at
        kind = r.u8()
        epoch = r.u64()
        parents = [r.take(32) for _ in range(r.u8())]
        r.take(32)  # the payload digest
        entry = r.data[start:r.at]
        if index == 0:
            if kind != 1 or parents != [bytes(32)]:
                raise Damaged("a team log that does not start with the vault's creation")
        elif any(p not in epochs or epochs[p] >= epoch for p in parents) or len(parents) != (2 if kind == 7 else 1):
            raise Damaged("a team log entry out of its chain")
        head = hashlib.sha256(b"vault team log entry" + vault_id + entry).digest()
        epochs[head] = epoch
    if epochs[head] != struct.unpack(">Q", key_epoch)[0]:
        raise Damaged("the key epoch is not the team log's")
    r.lengthed(1 << 24)  # the payloads, sealed under the wrap key
    return head


def header_slots(data):
    """The vault id and the member slots, after the checksum over the header parameters is checked."""
    r = Reader(data)
    if r.take(8) != MAGIC or struct.unpack(">H", r.take(2))[0] != 3:
        raise Damaged("not a format v3 vault")
    vault_id = r.take(16)
    key_epoch = r.take(8)
    r.take(8 + 16 + 16)  # write generation, write id, device check
    r.take(102 * r.u8())  # keyslots
    slots_start = r.at
    count = r.u8()
    if count > 64:
        raise Damaged("%d member slots" % count)
    slots = []
    for _ in range(count):
        share = r.take(32)
        key_part = r.lengthed(32768)
        roster_part = r.lengthed(1024)
        if len(key_part) <= 28 or len(roster_part) <= 28:
            raise Damaged("a member slot part shorter than its seal")
        slots.append((share, key_part))
    member_slots = data[slots_start:r.at]
    head = team_log_head(r, vault_id, key_epoch)
    signing_public_key = r.take(32)
    r.take(60)  # the wrapped signing key
    trust_public_key = r.take(32)
    r.take(60)  # the wrapped trust key
    trust_signature = r.take(64)
    try:
        Ed25519PublicKey.from_public_bytes(trust_public_key).verify(
            trust_signature, b"vault v3 trust statement" + vault_id + key_epoch + signing_public_key
            + head + hashlib.sha256(member_slots).digest())
    except InvalidSignature:
        raise Damaged("the trust statement does not check under the trust public key")
    for _ in range(r.u8()):
        r.take(1 + 60)  # class id, wrapped class key
    for _ in range(r.u32()):
        r.take(4 + 16)
        r.lengthed(256)
    end = r.at
    if hashlib.sha256(data[:end]).digest() != r.take(32):
        raise Damaged("the header checksum does not match")
    return vault_id, slots, hashlib.sha256(trust_public_key).hexdigest()


def grant(r):
    out = {"id": r.u32(), "name": r.lengthed(64).decode(), "key_check": r.take(16).hex(), "lookup_key": r.take(32).hex()}
    flag = r.u8()
    if flag not in (0, 1):
        raise Damaged("a malformed key field")
    out["index_mac_key"] = r.take(32).hex() if flag else None
    out["classes"] = {str(r.u8()): r.take(32).hex() for _ in range(r.u8())}
    return out


def main(vault_path, identity_path):
    data = open(vault_path, "rb").read()
    lines = [line.strip() for line in open(identity_path).read().splitlines()]
    secret = bech32_identity(next(line for line in lines if line and not line.startswith("#")))
    private = X25519PrivateKey.from_private_bytes(secret)
    recipient = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    vault_id, slots, trust_fingerprint = header_slots(data)
    for number, (share, key_part) in enumerate(slots):
        shared = private.exchange(X25519PublicKey.from_public_bytes(share))
        wmk = HKDF(algorithm=hashes.SHA256(), length=32, salt=share + recipient,
                   info=b"vault v1 member" + vault_id).derive(shared)
        try:
            payload = AESGCM(wmk).decrypt(key_part[:12], key_part[12:], b"member" + vault_id + share)
        except Exception:
            continue
        r = Reader(payload)
        out = {"slot": number, "name": r.lengthed(64).decode()}
        kind = r.u8()
        if kind == 1:
            out.update(kind="full", header_mac_key=r.take(32).hex(), wrap_key=r.take(32).hex())
        elif kind == 2:
            read_only = r.u8()
            out.update(kind="scoped", read_only=bool(read_only), groups=[grant(r) for _ in range(r.u32())])
        else:
            raise Damaged("an unknown member kind")
        if r.at != len(payload):
            raise Damaged("bytes follow a member slot's keys")
        out["trust_fingerprint"] = trust_fingerprint
        print(json.dumps(out, sort_keys=True))
        return 0
    raise Damaged("no member slot opens with the identity")


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1], sys.argv[2]))
    except Damaged as error:
        print("member_slot.py: %s" % error, file=sys.stderr)
        sys.exit(1)
