#!/usr/bin/env python3
"""An independent reader of the vault file, format v3, written from
docs/FORMAT.md alone (not from vault's code), so that tests can check that
the page means what vault writes, and ask "with these keys, which values
open in this file?".

    vault_v3.py VAULT [--passphrase-file F] [--key-file F] [--keyring-key F]
                      [--credential F] [--identity F] [--device-key F]
                      [--trust FINGERPRINT] [--slot-keys-from OTHER]
                      [--show-secrets] [--values]

Parses the whole file (header, keyslots, member slots, team log, trust
statement, class and group keys, index, group sections, listing blocks with
the tombstone and trash blocks, records) and checks every checksum, digest,
signature and structure rule that needs no key. Then, with each key given
(any number, of any kind), checks what those keys can check (the header MAC
with MK or a full member's HMK, each group's index MAC with IMK, else its
read MAC) and opens every record, listing block, tombstone block and trash
entry those keys open. Prints one JSON object:

    {"vault": {...}, "principals": [...], "items": [...], "trash": [...],
     "tombstones": [...], "grants": [...], "unopened": [...]}

Each item has its group, class, service, account, attributes (dates in
milliseconds since 1970), and its "secret", "notes" and "otp" (the one-time
code secret) as {"sha256"}, or {"sha256", "hex"} with --show-secrets; its
"revisions" and "conflicts" (each conflict's other "version", when the keys
open it) nested, each the same way. Trash entries are items with their
"deleted_at". `unopened` names what is in the file and did not open with the
keys given, with why.

With --slot-keys-from OTHER (any number), each --identity opens its member
slot in the file OTHER, and the keys that slot gives are tried on VAULT:
"do a member's keys from another copy (its old slot, or a new one) open this
one?". A full member's wrap key that does not check VAULT's header opens
nothing (no damage), and its class keys are tried as AES-GCM decides.

It is a probe, not a gate: it does not check a credential's expiry (it
shows it), and tries a revoked credential's keys on its groups' records
(AES-GCM refuses them unless the group was not re-keyed); vault refuses
both whole. With --values it prints
instead the sorted list of every value the keys open, one object each:
{"group", "class", "service", "account", "where", "field", "sha256"} (and
"hex" with --show-secrets), as `opened_values` gives them.

Exit 0 when the keys given open at least one principal; 3 when none opens
(a wrong passphrase, key file or identity: nothing in the file opens); 1
when a check fails (damage), naming it; 2 for a usage error.

As a library: `parse(data)`, `Keys(...)`, `open_vault(data, keys)` and
`opened_values(data, keys)`; see their doc strings.
"""
import argparse
import base64
import hashlib
import hmac
import json
import os
import struct
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

sys.dont_write_bytecode = True  # no __pycache__ in the work tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from member_slot import bech32_identity  # noqa: E402  (the age identity's Bech32, from the same page)

MAGIC = bytes.fromhex("895641554c540d0a")
VERSION = 3
RECORD_LAYOUT = 1
KEY_SCHEDULE = 2  # v3's keys are v2's: a credential granted from a v3 vault carries version 2
CLASSES = {1: "when-unlocked", 2: "after-first-unlock", 3: "always", 4: "when-unlocked-this-device-only",
           5: "after-first-unlock-this-device-only", 6: "always-this-device-only",
           7: "when-passcode-set-this-device-only"}
DEVICE_BOUND = {4, 5, 6, 7}
TOMBSTONE_CLASS, TRASH_CLASS, GRANT_LEDGER_CLASS = 0, 255, 254
TEXT_TAGS = {1: "service", 2: "account", 3: "label", 4: "comment", 5: "kind", 6: "generic", 11: "env_name"}
DATE_TAGS = {7: "created", 8: "modified", 9: "expires"}
SECRET, REVISION, CONFLICT, NOTES, OTP = 10, 12, 13, 14, 15
SEALED_FIELDS = {SECRET: "secret", NOTES: "notes", OTP: "otp"}
LOG_KINDS = {1: "created", 2: "member added", 3: "member removed", 4: "re-keyed", 5: "group key replaced",
             6: "group deleted", 7: "joined", 8: "env names allowed"}
MAX_RECORD = (1 << 20) + (64 << 10)


class Damaged(Exception):
    """A check the page names failed: the file (or a key file) is damaged or was tampered with."""


class Reader:
    def __init__(self, data):
        self.data, self.at = data, 0

    def take(self, n):
        if n < 0 or self.at + n > len(self.data):
            raise Damaged(f"the data ends at {len(self.data)} where {n} bytes were expected at {self.at}")
        chunk = self.data[self.at:self.at + n]
        self.at += n
        return chunk

    def u8(self):
        return self.take(1)[0]

    def u16(self):
        return struct.unpack(">H", self.take(2))[0]

    def u32(self):
        return struct.unpack(">I", self.take(4))[0]

    def u64(self):
        return struct.unpack(">Q", self.take(8))[0]

    def i64(self):
        return struct.unpack(">q", self.take(8))[0]

    def lengthed(self, limit):
        n = self.u32()
        if n > limit:
            raise Damaged(f"a length of {n} over {limit}")
        return self.take(n)

    def rest(self):
        return self.take(len(self.data) - self.at)

    def done(self):
        return self.at == len(self.data)


def lengthed(value):
    return struct.pack(">I", len(value)) + value


def sha256(data):
    return hashlib.sha256(data).digest()


def mac(key, data):
    return hmac.new(key, data, hashlib.sha256).digest()


def derive(vault_id, material, label, context=b""):
    """HKDF-SHA256, salt the vault id, info `vault v1 <label>` ‖ context, 32 bytes (FORMAT.md, top)."""
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=vault_id,
                info=b"vault v1 " + label.encode() + context).derive(material)


def unseal(key, sealed, aad):
    """AES-256-GCM of nonce (12) ‖ ciphertext ‖ tag (16), or None when it does not open."""
    if len(sealed) < 28:
        return None
    try:
        return AESGCM(key).decrypt(sealed[:12], sealed[12:], aad)
    except Exception:
        return None


def unseal_or_damage(key, sealed, aad, what):
    plain = unseal(key, sealed, aad)
    if plain is None:
        raise Damaged(f"{what} does not open")
    return plain


def verify_ed25519(public, signature, message, what):
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, message)
    except (InvalidSignature, ValueError) as error:
        raise Damaged(f"{what} does not check") from error


def top_bits(data, count):
    """The first `count` bits of `data` (count ≤ 15), as a number: an index or listing bucket."""
    return 0 if count == 0 else struct.unpack(">H", data[:2])[0] >> (16 - count)


def log2_of_power_of_two(k, what):
    if k < 1 or k > 1 << 15 or k & (k - 1):
        raise Damaged(f"{what} of {k}, not a power of two up to 2^15")
    return k.bit_length() - 1


# --- parsing: every field of the page, in order, with the checks that need no key -------------------

def parse(data):
    """The whole file as a dict, its checksum, structure, team log chain, trust statement and header
    signature checked (none needs a key). Raises Damaged naming the first check that fails."""
    r = Reader(data)
    f = {}
    if r.take(8) != MAGIC:
        raise Damaged("bad magic")
    f["version"] = r.u16()
    if f["version"] != VERSION:
        raise Damaged(f"format version {f['version']}, not 3")
    f["vault_id"] = r.take(16)
    f["key_epoch_bytes"] = r.take(8)
    f["key_epoch"] = struct.unpack(">Q", f["key_epoch_bytes"])[0]
    f["write_generation"] = r.u64()
    f["write_id"] = r.take(16)
    f["device_check"] = r.take(16)
    count = r.u8()
    if not 1 <= count <= 16:
        raise Damaged(f"{count} keyslots")
    f["keyslots"] = []
    for _ in range(count):
        start = r.at
        kind, salt, log_n, cost_r, cost_p, check = r.u8(), r.take(16), r.u8(), r.u32(), r.u32(), r.take(16)
        slot = {"kind": kind, "salt": salt, "log_n": log_n, "r": cost_r, "p": cost_p, "check": check,
                "described": data[start:r.at], "wrapped": r.take(60)}
        if kind == 1 and (log_n > 20 or 128 * cost_r * (1 << log_n) > 1 << 30 or cost_p == 0):
            raise Damaged("a keyslot's scrypt cost over the cap")
        f["keyslots"].append(slot)
    members_start = r.at
    count = r.u8()
    if count > 64:
        raise Damaged(f"{count} member slots")
    f["member_slots"] = []
    for _ in range(count):
        share, key_part, roster_part = r.take(32), r.lengthed(32768), r.lengthed(1024)
        if len(key_part) <= 28 or len(roster_part) <= 28:
            raise Damaged("a member slot part no longer than its seal")
        f["member_slots"].append({"share": share, "key_part": key_part, "roster_part": roster_part})
    f["member_slot_bytes"] = data[members_start:r.at]
    parse_team_log(r, f)
    f["signing_public_key"], f["wrapped_signing_key"] = r.take(32), r.take(60)
    f["trust_public_key"], f["wrapped_trust_key"] = r.take(32), r.take(60)
    f["trust_statement"] = r.take(64)
    f["class_keys"] = [(r.u8(), r.take(60)) for _ in range(r.u8())]
    count = r.u32()
    if count > 4096:
        raise Damaged(f"{count} groups")
    f["groups"] = [{"id": r.u32(), "key_check": r.take(16), "sealed": r.lengthed(256)} for _ in range(count)]
    if len({g["id"] for g in f["groups"]}) != count:
        raise Damaged("a group id twice")
    f["parameters_end"] = r.at
    if sha256(data[:r.at]) != r.take(32):
        raise Damaged("the header checksum")
    f["header_mac"] = r.take(32)
    f["header_signature"] = r.take(64)
    count = r.u32()
    if count > 10_000_000 or count * 89 > len(data) - r.at:
        raise Damaged(f"an index of {count} entries")
    f["index"] = []
    for _ in range(count):
        raw = r.take(89)
        group_id, class_id, length = struct.unpack(">IBI", raw[48:57])
        f["index"].append({"raw": raw, "record_id": raw[:16], "item_id": raw[16:32], "tag": raw[32:48],
                           "group": group_id, "class": class_id, "length": length, "digest": raw[57:89]})
    for group in f["groups"]:
        generation, k = r.u64(), r.u16()
        log2_of_power_of_two(k, "an index bucket count")
        group.update(generation=generation, buckets=[r.take(32) for _ in range(k)], index_mac=r.take(32),
                     read_mac=r.take(32))
    count = r.u32()
    if count * 43 > len(data) - r.at:
        raise Damaged(f"{count} listing blocks do not fit the file")
    f["blocks"] = [{"group": r.u32(), "class": r.u8(), "bucket": r.u16(), "digest": r.take(32),
                    "sealed": r.lengthed(1 << 30)} for _ in range(count)]
    for entry in f["index"]:
        if entry["length"] > MAX_RECORD:
            raise Damaged("a record over its maximum length")
        entry["sealed"] = r.take(entry["length"])
    if not r.done():
        raise Damaged("bytes after the last record")
    check_structure(f)
    check_trust(data, f)
    return f


def parse_team_log(r, f):
    """The team log's clear part, its chain checked as "On parse" says; its sealed payloads kept."""
    vault_id = f["vault_id"]
    count = r.u32()
    if not 1 <= count <= 16384:
        raise Damaged(f"a team log of {count} entries")
    f["log"], epochs = [], {}
    for number in range(count):
        start = r.at
        kind, epoch = r.u8(), r.u64()
        parents = [r.take(32) for _ in range(r.u8())]
        digest = r.take(32)
        # Kind 8 keeps its change in clear too: u16 n and n bytes, covered by the entry's hash.
        clear = r.take(r.u16()) if kind == 8 else b""
        entry_hash = sha256(b"vault team log entry" + vault_id + r.data[start:r.at])
        if number == 0:
            # The first entry names one parent of 32 zero bytes (the page's "no parent").
            if kind != 1 or parents != [bytes(32)] or epoch < 1:
                raise Damaged("a team log that does not start with the vault's creation")
        else:
            if len(parents) != (2 if kind == 7 else 1) or any(p not in epochs or epochs[p] >= epoch for p in parents):
                raise Damaged("a team log entry out of its chain")
            if kind == 7 and not parents[0] < parents[1]:
                raise Damaged("a join whose parents are not two, the lower first")
        if entry_hash in epochs or kind not in LOG_KINDS:
            raise Damaged("a team log entry repeated or of no kind")
        epochs[entry_hash] = epoch
        f["log"].append({"kind": kind, "epoch": epoch, "parents": parents, "digest": digest, "hash": entry_hash, "clear": clear})
    f["log_head"] = f["log"][-1]["hash"]
    if f["log"][-1]["epoch"] != f["key_epoch"]:
        raise Damaged("the key epoch is not the team log's")
    f["log_payloads"] = r.lengthed(1 << 30)


def check_structure(f):
    """Index entries name a group and class of the header; listing blocks name a pair with entries,
    each pair's blocks its buckets 0 … K − 1 in order; but a group's tombstone block (class 0),
    trash block (class 255) and grant ledger block (class 254): bucket 0, at most one each. (Their place among the group's blocks is the
    writer's, bound by the group's MACs, and not a structure rule.)"""
    group_ids = {g["id"] for g in f["groups"]}
    class_ids = {c for c, _ in f["class_keys"]}
    pairs = set()
    for entry in f["index"]:
        if entry["group"] not in group_ids or entry["class"] not in class_ids:
            raise Damaged("an index entry of no group or class of the header")
        pairs.add((entry["group"], entry["class"]))
    seen_buckets, specials = {}, set()
    for block in f["blocks"]:
        if block["class"] in (TOMBSTONE_CLASS, TRASH_CLASS, GRANT_LEDGER_CLASS):
            what = {TOMBSTONE_CLASS: "tombstone", TRASH_CLASS: "trash", GRANT_LEDGER_CLASS: "grant ledger"}[block["class"]]
            if block["group"] not in group_ids or block["bucket"] != 0 or (block["group"], what) in specials:
                raise Damaged(f"a {what} block of no group, or more than one")
            specials.add((block["group"], what))
            continue
        pair = (block["group"], block["class"])
        if pair not in pairs or block["bucket"] != seen_buckets.get(pair, 0):
            raise Damaged("a listing block of no items, or out of its bucket order")
        seen_buckets[pair] = block["bucket"] + 1
    for pair, k in seen_buckets.items():
        log2_of_power_of_two(k, "a listing bucket count")


def check_trust(data, f):
    """The trust statement under TP and the header signature under SGP: public keys, so every reader can."""
    vault_id = f["vault_id"]
    statement = (b"vault v3 trust statement" + vault_id + f["key_epoch_bytes"] + f["signing_public_key"]
                 + f["log_head"] + sha256(f["member_slot_bytes"]))
    verify_ed25519(f["trust_public_key"], f["trust_statement"], statement, "the trust statement")
    end = f["parameters_end"]
    verify_ed25519(f["signing_public_key"], f["header_signature"],
                   b"vault v2 header signature" + data[:end + 32], "the header signature")
    f["trust_fingerprint"] = sha256(f["trust_public_key"]).hex()


# --- keys: what each principal holds ------------------------------------------------------------------

class Keys:
    """The keys to try, any number of each kind: passphrases and key-file contents (bytes), desktop
    keyring keys (bytes), credentials (their text), identities (AGE-SECRET-KEY-1… text), and the
    device key (32 bytes) for the device-bound classes. `trust` pins the fingerprint an identity
    reads under (as `--trust`); without it an identity reads under the header's own."""

    def __init__(self, passphrases=(), key_files=(), keyring_keys=(), credentials=(), identities=(),
                 device_key=None, trust=None, slot_files=()):
        self.passphrases, self.key_files, self.keyring_keys = list(passphrases), list(key_files), list(keyring_keys)
        self.credentials, self.identities = list(credentials), list(identities)
        self.device_key, self.trust = device_key, trust
        # Other copies of the file (bytes) whose member slots the identities open, their keys tried here.
        self.slot_files = list(slot_files)


def owner_principals(f, keys):
    """MK from every keyslot a given secret opens (AES-GCM decides; a check that disagrees is damage)."""
    vault_id, found = f["vault_id"], []
    for number, slot in enumerate(f["keyslots"]):
        if slot["kind"] == 1:
            keks = [hashlib.scrypt(p, salt=slot["salt"], n=1 << slot["log_n"], r=slot["r"], p=slot["p"],
                                   maxmem=(1 << 31) - 1, dklen=32) for p in keys.passphrases]
        elif slot["kind"] in (2, 3):
            label, secrets = (b"vault v1 key file", keys.key_files) if slot["kind"] == 2 else \
                (b"vault v1 desktop keyring", keys.keyring_keys)
            keks = [HKDF(algorithm=hashes.SHA256(), length=32, salt=slot["salt"], info=label + vault_id).derive(s)
                    for s in secrets]
        else:
            raise Damaged(f"a keyslot of kind {slot['kind']}")
        for kek in keks:
            master = unseal(kek, slot["wrapped"], vault_id + slot["described"])
            checks = mac(kek, b"vault v1 keyslot check" + vault_id)[:16] == slot["check"]
            if (master is not None) != checks:
                raise Damaged("a keyslot whose check and wrapped key disagree")
            if master is not None:
                found.append({"kind": "owner", "via": ["", "passphrase", "key file", "desktop keyring"][slot["kind"]],
                              "slot": number, "master_key": master,
                              "header_mac_key": derive(vault_id, master, "header mac v2"),
                              "wrap_key": derive(vault_id, master, "key wrap")})
    return found


def parse_grant(r):
    """A grant of a group (FORMAT.md, "Machine-local files"): the codec of credentials and member slots."""
    grant = {"id": r.u32(), "name": r.lengthed(256).decode("utf-8"), "key_check": r.take(16), "lookup_key": r.take(32)}
    presence = r.u8()
    if presence not in (0, 1):
        raise Damaged("a grant's IMK presence byte")
    grant["index_mac_key"] = r.take(32) if presence else None
    grant["base_keys"] = {}
    for _ in range(r.u8()):
        class_id = r.u8()
        grant["base_keys"][class_id] = r.take(32)
    return grant


def credential_principal(text):
    """A scoped credential's groups and keys (FORMAT.md, "Scoped credentials")."""
    text = "".join(text.split())
    if text.startswith("vault-credential-v1:"):
        text = text[len("vault-credential-v1:"):]
    payload = base64.b64decode(text, validate=True)
    if len(payload) < 16 or sha256(payload[:-16])[:16] != payload[-16:]:
        raise Damaged("a credential whose checksum does not match")
    r = Reader(payload[:-16])
    if r.take(4) != b"VCRD":
        raise Damaged("not a credential")
    version, vault_id, flags, issued, expires = r.u8(), r.take(16), r.u8(), r.u64(), r.u64()
    if version not in (1, 2) or flags not in (0, 1):
        raise Damaged(f"a credential of version {version}, flags {flags}")
    count = r.u8()
    if not 1 <= count <= 64:
        raise Damaged(f"a credential of {count} groups")
    grants = [parse_grant(r) for _ in range(count)]
    if not r.done():
        raise Damaged("bytes after a credential's groups")
    return {"kind": "credential", "version": version, "vault_id": vault_id, "read_only_flag": bool(flags),
            "issued": issued, "expires": expires, "grants": grants}


def identity_principals(f, text):
    """The member slot an age identity opens (FORMAT.md, "Member slots"), or none."""
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]
    private = X25519PrivateKey.from_private_bytes(bech32_identity(lines[0]))
    recipient = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    vault_id = f["vault_id"]
    for number, slot in enumerate(f["member_slots"]):
        try:
            shared = private.exchange(X25519PublicKey.from_public_bytes(slot["share"]))
        except ValueError as error:
            raise Damaged("a member slot's ephemeral share of low order") from error
        wmk = HKDF(algorithm=hashes.SHA256(), length=32, salt=slot["share"] + recipient,
                   info=b"vault v1 member" + vault_id).derive(shared)
        payload = unseal(wmk, slot["key_part"], b"member" + vault_id + slot["share"])
        if payload is None:
            continue
        r = Reader(payload)
        principal = {"kind": "member", "slot": number, "name": r.lengthed(64).decode("utf-8")}
        kind = r.u8()
        if kind == 1:
            principal.update(member="full", header_mac_key=r.take(32), wrap_key=r.take(32))
        elif kind == 2:
            read_only = r.u8()
            count = r.u32()
            if read_only not in (0, 1) or not 1 <= count <= 64:
                raise Damaged("a scoped member slot's read-only byte or count")
            # A scoped member opens as a credential of the file's key schedule that never expires.
            principal.update(member="scoped", read_only_flag=bool(read_only), version=KEY_SCHEDULE, expires=0,
                             grants=[parse_grant(r) for _ in range(count)])
        else:
            raise Damaged(f"a member slot of kind {kind}")
        if not r.done():
            raise Damaged("bytes after a member slot's keys")
        return [principal]
    return []


# --- opening with the keys of one principal ------------------------------------------------------------

def group_context(f, group, blocks):
    """C of FORMAT.md "Group sections", for one group."""
    return (f["vault_id"] + f["key_epoch_bytes"] + struct.pack(">QIQ", f["write_generation"], group["id"],
                                                                group["generation"])
            + f["write_id"] + struct.pack(">H", len(group["buckets"])) + b"".join(group["buckets"])
            + b"".join(struct.pack(">BH", b["class"], b["bucket"]) + b["digest"] for b in blocks))


def check_buckets(f, group):
    bits = log2_of_power_of_two(len(group["buckets"]), "an index bucket count")
    contents = [b""] * len(group["buckets"])
    for entry in f["index"]:
        if entry["group"] == group["id"]:
            contents[top_bits(entry["tag"], bits)] += entry["raw"]
    if [sha256(c) for c in contents] != group["buckets"]:
        raise Damaged(f"the bucket digests of group {group['id']}")


def open_wrapped(f, principal):
    """With WK (the owner, a full member): the class keys, each group's name and key, SGK, the team log's
    payloads and the roster; with MK, TK too. The header MAC first. A full member's keys from another copy
    of the file (`foreign`) are a probe: they open nothing when the header MAC and WK do not check here."""
    data_end, vault_id = f["parameters_end"] + 32, f["vault_id"]
    wk = principal["wrap_key"]
    if mac(principal["header_mac_key"], f["raw"][:data_end]) != f["header_mac"]:
        if not principal.get("foreign"):
            raise Damaged("the header MAC")
        if all(unseal(wk, sealed, b"class" + vault_id + bytes([c])) is None for c, sealed in f["class_keys"]):
            principal["grants"], principal["version"] = [], KEY_SCHEDULE
            return []
    class_keys = {c: unseal_or_damage(wk, sealed, b"class" + vault_id + bytes([c]), f"class key {c}")
                  for c, sealed in f["class_keys"]}
    grants = []
    for group in f["groups"]:
        plain = unseal_or_damage(wk, group["sealed"], b"group" + vault_id + struct.pack(">I", group["id"]),
                                 f"group {group['id']}")
        name, gk = plain[:-32].decode("utf-8"), plain[-32:]
        if mac(gk, b"vault v1 group key check" + vault_id + struct.pack(">I", group["id"]))[:16] != group["key_check"]:
            raise Damaged(f"the key check of group {name}")
        grants.append({"id": group["id"], "name": name, "key_check": group["key_check"], "group_key": gk,
                       "lookup_key": derive(vault_id, gk, "lookup"), "index_mac_key": derive(vault_id, gk, "index mac v2"),
                       "base_keys": {c: derive(vault_id, gk + ck, "base", struct.pack(">IB", group["id"], c))
                                     for c, ck in class_keys.items()}})
    sgk = unseal_or_damage(wk, f["wrapped_signing_key"], b"signing key" + vault_id, "the wrapped signing key")
    if Ed25519PrivateKey.from_private_bytes(sgk).public_key().public_bytes(Encoding.Raw, PublicFormat.Raw) \
            != f["signing_public_key"]:
        raise Damaged("the signing key is not the header's")
    if "master_key" in principal:
        twk = derive(vault_id, principal["master_key"], "trust key wrap")
        tk = unseal(twk, f["wrapped_trust_key"], b"trust key" + vault_id + f["trust_public_key"]) \
            or unseal_or_damage(twk, f["wrapped_trust_key"], b"trust key" + vault_id, "the wrapped trust key")
        if Ed25519PrivateKey.from_private_bytes(tk).public_key().public_bytes(Encoding.Raw, PublicFormat.Raw) \
                != f["trust_public_key"]:
            raise Damaged("the trust key is not the header's")
    principal["log"] = open_team_log(f, wk)
    principal["roster"] = [open_roster(f, wk, slot) for slot in f["member_slots"]]
    principal["grants"], principal["version"] = grants, KEY_SCHEDULE
    return grants


def parse_roster_entry(r):
    entry = {"name": r.lengthed(64).decode("utf-8"), "recipient": r.lengthed(256).decode("ascii"),
             "added_at": r.i64(), "kind": r.u8(), "read_only": r.u8()}
    entry["groups"] = [r.u32() for _ in range(r.u32())]
    return entry


def open_roster(f, wk, slot):
    plain = unseal_or_damage(wk, slot["roster_part"], b"member info" + f["vault_id"] + slot["share"], "a roster part")
    r = Reader(plain)
    entry = parse_roster_entry(r)
    if not r.done():
        raise Damaged("bytes after a roster entry")
    return entry


def open_team_log(f, wk):
    """The payloads opened, each matched with its entry's digest, and decoded."""
    vault_id = f["vault_id"]
    plain = unseal_or_damage(wk, f["log_payloads"], b"team log" + vault_id + f["log_head"], "the team log's payloads")
    r, decoded = Reader(plain), []
    for entry in f["log"]:
        payload = r.lengthed(1 << 30)
        if sha256(b"vault team log payload" + vault_id + payload) != entry["digest"]:
            raise Damaged("a team log payload does not match its digest")
        p = Reader(payload)
        p.take(16)  # salt
        change = {"kind": LOG_KINDS[entry["kind"]], "epoch": entry["epoch"]}
        if entry["kind"] in (1, 7):
            change["members"] = [parse_roster_entry(Reader(p.lengthed(1 << 16))) for _ in range(p.u8())]
        elif entry["kind"] == 2:
            change["member"] = parse_roster_entry(Reader(p.lengthed(1 << 16)))
        elif entry["kind"] == 3:
            change.update(name=p.lengthed(64).decode("utf-8"), recipient=p.take(32).hex())
        elif entry["kind"] == 4:
            change["trust_key_replaced"] = p.u8() == 1
        elif entry["kind"] == 8:
            if payload[16:] != entry["clear"]:
                raise Damaged("a team log payload does not match its entry")
            change.update(group=p.u32(), names=p.take(p.u16()).decode("utf-8"))
        else:
            change["group"] = p.u32()
        if not p.done():
            raise Damaged("bytes after a team log payload's change")
        decoded.append(change)
    if not r.done():
        raise Damaged("more team log payloads than entries")
    return decoded


def check_group_macs(f, principal, grant, group):
    """The index MAC with IMK (of the file's key schedule: a version-1 credential's are v1's), else the
    read MAC; the bucket digests first."""
    vault_id = f["vault_id"]
    blocks = [b for b in f["blocks"] if b["group"] == group["id"]]
    check_buckets(f, group)
    context = group_context(f, group, blocks)
    imk = grant["index_mac_key"] if principal.get("version") == KEY_SCHEDULE else None
    if imk is not None:
        ok, which = mac(imk, b"vault v2 index" + context) == group["index_mac"], "index MAC"
    else:
        rmk = derive(vault_id, grant["lookup_key"], "read mac")
        ok, which = mac(rmk, b"vault v2 read" + context) == group["read_mac"], "read MAC"
    if not ok:
        raise Damaged(f"the {which} of group {grant['name']}")
    return which


class Opened:
    """What one run of `open_vault` found."""

    def __init__(self):
        self.vault, self.principals, self.items, self.trash, self.tombstones, self.unopened = {}, [], [], [], [], []
        self.grants = []


def open_vault(data, keys, given=()):
    """Parses `data` and opens it with every principal `keys` gives, and the principals `given` (keys
    a member's slot held in another version of the file, as `identity_principals` read them). Returns
    an Opened: principals (what each key opened: owner, member, credential), items, trash entries,
    tombstones, and unopened (what did not open, with why). Raises Damaged when a check fails."""
    f = parse(data)
    f["raw"] = data
    out = Opened()
    principals = owner_principals(f, keys) + [dict(p) for p in given]
    for text in keys.identities:
        found = identity_principals(f, text)
        if found and keys.trust is not None and keys.trust != f["trust_fingerprint"]:
            raise Damaged("the header's trust key is not the pinned one")
        principals += found
    for other in keys.slot_files:
        of = parse(other)
        for text in keys.identities:
            for principal in identity_principals(of, text):
                principals.append({**principal, "foreign": True})
    principals += [credential_principal(text) for text in keys.credentials]
    device_key = keys.device_key
    device_ok = device_key is not None and mac(device_key, b"vault v1 device check" + f["vault_id"])[:16] == f["device_check"]
    # group id -> (grant, principal, checked): the first principal whose grant's key check is the header's,
    # else the first whose grant is revoked (its keys are still tried, as a probe)
    held = {}
    for principal in principals:
        if principal["kind"] == "owner" or principal.get("member") == "full":
            open_wrapped(f, principal)
        if principal["kind"] == "credential" and principal["vault_id"] != f["vault_id"]:
            principal["groups"] = {}
            continue
        principal["groups"] = {}
        for grant in principal["grants"]:
            group = next((g for g in f["groups"] if g["id"] == grant["id"]), None)
            if group is None:
                principal["groups"][grant["name"]] = "not in the file"
            elif grant["key_check"] != group["key_check"]:
                principal["groups"][grant["name"]] = "revoked (its key check is not the header's)"
                held.setdefault(grant["id"], (grant, principal, False))
            else:
                principal["groups"][grant["name"]] = check_group_macs(f, principal, grant, group)
                if not held.get(grant["id"], (None, None, False))[2]:
                    held[grant["id"]] = (grant, principal, True)
    f["held"] = {gid: grant for gid, (grant, _, _) in held.items()}
    out.principals = [describe(p) for p in principals]
    out.vault = describe_file(f)
    for group in f["groups"]:
        grant, _, checked = held.get(group["id"], (None, None, False))
        open_group(f, out, group, grant, checked, device_key if device_ok else None)
    out.items.sort(key=lambda i: (i["group"], i["service"], i["account"], i["class"]))
    return out


def group_name(grant, group_id):
    return grant["name"] if grant else f"#{group_id}"


def open_group(f, out, group, grant, checked, device_key):
    """Every record, listing block, tombstone and trash entry of one group that the grant opens."""
    gid = group["id"]
    name = group_name(grant, gid)
    for entry in (e for e in f["index"] if e["group"] == gid):
        where = {"where": "record", "group": name, "class": CLASSES.get(entry["class"]),
                 "item_id": entry["item_id"].hex()}
        if sha256(entry["sealed"]) != entry["digest"]:
            raise Damaged(f"a record of group {name} does not match its digest")
        plain, why = open_record(f, grant, gid, entry["class"], entry["record_id"], entry["sealed"], device_key)
        if plain is None:
            out.unopened.append({**where, "why": why})
            continue
        item = {"group": name, "class": CLASSES[entry["class"]], "item_id": entry["item_id"].hex(),
                "checked": checked}
        item.update(parse_record(plain, f, grant, device_key, out))
        lookup = lengthed(item["service"].encode()) + lengthed(item["account"].encode())
        if mac(grant["lookup_key"], lookup)[:16] != entry["tag"]:
            raise Damaged(f"the lookup tag of {item['service']}/{item['account']}")
        out.items.append(item)
    open_blocks(f, out, group, grant, device_key)


def record_key(f, grant, group_id, class_id, record_id, device_key, label="record"):
    if grant is None:
        return None, "its group is not one the keys given hold"
    base = grant["base_keys"].get(class_id)
    if base is None:
        return None, "no base key of its group and class (locked)"
    if class_id in DEVICE_BOUND:
        if device_key is None:
            return None, "bound to a device key not given"
        base += device_key
    return derive(f["vault_id"], base, label, record_id), None


def open_record(f, grant, group_id, class_id, record_id, sealed, device_key):
    key, why = record_key(f, grant, group_id, class_id, record_id, device_key)
    if key is None:
        return None, why
    aad = f["vault_id"] + record_id + struct.pack(">IBH", group_id, class_id, RECORD_LAYOUT)
    plain = unseal(key, sealed, aad)
    return (plain, None) if plain is not None else (None, "does not open under the keys given (AES-GCM)")


def sealed_value(value):
    return {"sha256": sha256(value).hex(), "bytes": value}


def parse_fields(plain, required):
    """A run of `u8` tag ‖ `u32` length ‖ value fields (FORMAT.md, "Records"); unknown tags skipped."""
    r, item, raw = Reader(plain), {}, []
    while not r.done():
        tag = r.u8()
        value = r.lengthed(len(plain))
        raw.append((tag, value))
        if tag in TEXT_TAGS:
            item[TEXT_TAGS[tag]] = value.decode("utf-8")
        elif tag in DATE_TAGS:
            if len(value) != 8:
                raise Damaged("a date field not of 8 bytes")
            item[DATE_TAGS[tag]] = struct.unpack(">q", value)[0]
        elif tag in SEALED_FIELDS:
            item[SEALED_FIELDS[tag]] = sealed_value(value)
    for field in required:
        if field not in item:
            raise Damaged(f"fields without {field}")
    return item, raw


def parse_record(plain, f, grant, device_key, out, required=("service", "account", "secret", "created", "modified")):
    item, raw = parse_fields(plain, required)
    item["revisions"], item["conflicts"] = [], []
    for tag, value in raw:
        if tag == REVISION:
            if len(value) < 16:
                raise Damaged("a revision shorter than 16 bytes")
            set_at, replaced_at = struct.unpack(">qq", value[:16])
            item["revisions"].append({"set_at": set_at, "replaced_at": replaced_at, "secret": sealed_value(value[16:])})
        elif tag == CONFLICT:
            item["conflicts"].append(parse_conflict(value, f, grant, device_key, out, item))
    return item


def parse_conflict(value, f, grant, device_key, out, item):
    r = Reader(value)
    side = r.u8()
    conflict = {"own_side": {0: "ours", 1: "theirs"}.get(side), "origin": r.lengthed(len(value)).decode("utf-8")}
    kind = r.u8()
    if kind == 0:
        conflict["other"] = "deleted"
    elif kind == 1:
        class_id = r.u8()
        conflict.update(other="same pair", **{"class": CLASSES.get(class_id), "group": r.lengthed(256).decode("utf-8")})
        version, _ = parse_fields(r.lengthed(len(value)), ("service", "account"))
        version["secret"] = sealed_value(r.rest())
        conflict["version"] = version
    elif kind == 2:
        group_id, class_id, record_id = r.u32(), r.u8(), r.take(16)
        sealed = r.rest()
        conflict.update(other="another pair", group_id=group_id, **{"class": CLASSES.get(class_id)})
        other = f["held"].get(group_id)
        plain, why = open_record(f, other, group_id, class_id, record_id, sealed, device_key)
        if plain is None:
            out.unopened.append({"where": "conflict version", "group": group_name(other, group_id),
                                 "class": CLASSES.get(class_id), "of": [item.get("service"), item.get("account")],
                                 "why": why})
        else:
            conflict["group"] = group_name(other, group_id)
            conflict["version"] = parse_record(plain, f, other, device_key, out)
    else:
        raise Damaged(f"a conflict of kind {kind}")
    return conflict


def open_blocks(f, out, group, grant, device_key):
    """The group's listing blocks (checked to list exactly its pairs' items), tombstones and trash."""
    vault_id, gid = f["vault_id"], group["id"]
    name = group_name(grant, gid)
    listed = {}
    for block in (b for b in f["blocks"] if b["group"] == gid):
        if sha256(block["sealed"]) != block["digest"]:
            raise Damaged(f"a listing block of group {name} does not match its digest")
        if block["class"] == TOMBSTONE_CLASS:
            open_tombstones(f, out, block, grant, name)
        elif block["class"] == TRASH_CLASS:
            open_trash(f, out, block, grant, name, device_key)
        elif block["class"] == GRANT_LEDGER_CLASS:
            open_grant_ledger(f, out, block, grant, name)
        else:
            key, why = record_key(f, grant, gid, block["class"], b"", device_key, label="listing")
            plain = unseal(key, block["sealed"], b"listing" + vault_id + struct.pack(">IBH", gid, block["class"],
                                                                                   block["bucket"])) if key else None
            if plain is None:
                out.unopened.append({"where": "listing block", "group": name, "class": CLASSES.get(block["class"]),
                                     "bucket": block["bucket"], "why": why or "does not open under the keys given (AES-GCM)"})
                continue
            listed.setdefault(block["class"], []).append((block["bucket"], plain))
    for class_id, buckets in listed.items():
        bits = log2_of_power_of_two(len(buckets), "a listing bucket count")
        ids = []
        for bucket, plain in buckets:
            r = Reader(plain)
            while not r.done():
                item_id = r.take(16)
                parse_fields(r.lengthed(len(plain)), ("service", "account", "created", "modified"))
                if top_bits(item_id, bits) != bucket:
                    raise Damaged("a listing block's item overruns it or is not of its bucket")
                ids.append(item_id)
        expected = [e["item_id"] for e in f["index"] if e["group"] == gid and e["class"] == class_id]
        if sorted(ids) != sorted(expected):
            raise Damaged(f"a listing block does not list its group's items (group {name})")


def open_grant_ledger(f, out, block, grant, name):
    """A group's grant ledger (FORMAT.md, "Grant ledger"): sealed under a key derived from GK, which
    only the owner and full members hold."""
    if grant is None or "group_key" not in grant:
        out.unopened.append({"where": "grant ledger block", "group": name, "why": "no group key of its group"})
        return
    key = derive(f["vault_id"], grant["group_key"], "grant ledger")
    plain = unseal(key, block["sealed"], b"grant ledger" + f["vault_id"] + struct.pack(">I", block["group"]))
    if plain is None:
        out.unopened.append({"where": "grant ledger block", "group": name, "why": "does not open under the keys given (AES-GCM)"})
        return
    r = Reader(plain)
    for _ in range(r.u32()):
        record = {"group": name, "id": r.take(8).hex()}
        flags = r.u8()
        if flags > 1:
            raise Damaged("a grant's read-only flag is neither 0 nor 1")
        record.update(read_only=bool(flags), issued=r.u64(), expires=r.u64(), revoked=r.u64(), groups=[])
        count = r.u8()
        if not 1 <= count <= 64:
            raise Damaged(f"a grant of {count} groups")
        for _ in range(count):
            gid, check = r.u32(), r.take(16)
            record["groups"].append({"id": gid, "key_check": check.hex(), "name": r.lengthed(256).decode("utf-8")})
        out.grants.append(record)
    if not r.done():
        raise Damaged("bytes after a grant ledger's records")


def open_tombstones(f, out, block, grant, name):
    if grant is None:
        out.unopened.append({"where": "tombstone block", "group": name, "why": "no lookup key of its group"})
        return
    key = derive(f["vault_id"], grant["lookup_key"], "tombstones")
    plain = unseal(key, block["sealed"], b"tombstones" + f["vault_id"] + struct.pack(">I", block["group"]))
    if plain is None:
        out.unopened.append({"where": "tombstone block", "group": name, "why": "does not open under the keys given (AES-GCM)"})
        return
    if len(plain) % 88:
        raise Damaged("a tombstone block not of 88-byte removals")
    for at in range(0, len(plain), 88):
        t = plain[at:at + 88]
        out.tombstones.append({"group": name, "item_id": t[:16].hex(), "removed_at": struct.unpack(">Q", t[16:24])[0],
                               "record_digest": t[24:56].hex(), "content_digest": t[56:88].hex()})


def open_trash(f, out, block, grant, name, device_key):
    if grant is None:
        out.unopened.append({"where": "trash block", "group": name, "why": "no lookup key of its group"})
        return
    gid = block["group"]
    key = derive(f["vault_id"], grant["lookup_key"], "trash")
    plain = unseal(key, block["sealed"], b"trash" + f["vault_id"] + struct.pack(">I", gid))
    if plain is None:
        out.unopened.append({"where": "trash block", "group": name, "why": "does not open under the keys given (AES-GCM)"})
        return
    r = Reader(plain)
    while not r.done():
        item_id, deleted_at, record_id, class_id = r.take(16), r.u64(), r.take(16), r.u8()
        sealed = r.lengthed(1 << 30)
        where = {"group": name, "class": CLASSES.get(class_id), "item_id": item_id.hex(), "deleted_at": deleted_at}
        opened, why = open_record(f, grant, gid, class_id, record_id, sealed, device_key)
        if opened is None:
            out.unopened.append({"where": "trash entry", **where, "why": why})
        else:
            out.trash.append({**where, **parse_record(opened, f, grant, device_key, out)})


# --- what a run shows --------------------------------------------------------------------------------

def describe(principal):
    shown = {k: principal[k] for k in ("kind", "via", "slot", "name", "member", "foreign", "version", "read_only_flag",
                                       "expires", "groups", "log", "roster") if k in principal}
    if "grants" in principal:
        shown["writer_of"] = sorted(g["name"] for g in principal["grants"] if g["index_mac_key"] is not None)
    return shown


def describe_file(f):
    return {"version": f["version"], "vault_id": f["vault_id"].hex(), "key_epoch": f["key_epoch"],
            "write_generation": f["write_generation"], "trust_fingerprint": f["trust_fingerprint"],
            "keyslots": [["", "passphrase", "key file", "desktop keyring"][s["kind"]] for s in f["keyslots"]],
            "member_slots": len(f["member_slots"]), "team_log": [LOG_KINDS[e["kind"]] for e in f["log"]],
            "groups": len(f["groups"]), "records": len(f["index"]), "listing_blocks": len(f["blocks"])}


def opened_values(data, keys):
    """Every sealed value the keys open in `data`, as a set of (group, class, service, account, where,
    field, value bytes): where is "item", "revision N", "conflict", "trash" or "trash revision N" (a
    conflict's own revisions add " revision N"); field is "secret", "notes" or "otp"."""
    return values_of(open_vault(data, keys))


def values_of(opened):
    """`opened_values` of what one `open_vault` found."""
    found = set()

    def add(item, where, group, class_name):
        for field in ("secret", "notes", "otp"):
            if field in item:
                found.add((group, class_name, item["service"], item["account"], where, field, item[field]["bytes"]))
        for number, revision in enumerate(item.get("revisions", []), 1):
            found.add((group, class_name, item["service"], item["account"], f"{where} revision {number}".strip(),
                       "secret", revision["secret"]["bytes"]))
        for conflict in item.get("conflicts", []):
            if "version" in conflict:
                add(conflict["version"], (where + " conflict").strip(), conflict.get("group", group),
                    conflict.get("class") or class_name)

    for item in opened.items:
        add(item, "", item["group"], item["class"])
    for entry in opened.trash:
        add(entry, "trash", entry["group"], entry["class"])
    return {(g, c, s, a, w or "item", fld, v) for g, c, s, a, w, fld, v in found}


def opens(principal):
    """Whether a principal opens anything of the file: MK or a member slot, or a group of a credential."""
    return principal["kind"] != "credential" or any(status.endswith("MAC") for status in principal["groups"].values())


def jsonable(value, show):
    if isinstance(value, dict):
        if set(value) == {"sha256", "bytes"}:
            return {"sha256": value["sha256"], **({"hex": value["bytes"].hex()} if show else {})}
        return {k: jsonable(v, show) for k, v in value.items() if k not in ("master_key", "header_mac_key", "wrap_key")}
    if isinstance(value, (list, tuple)):
        return [jsonable(v, show) for v in value]
    if isinstance(value, bytes):
        return value.hex()
    return value


def main(argv):
    parser = argparse.ArgumentParser(prog="vault_v3.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("vault")
    for option in ("passphrase-file", "key-file", "keyring-key", "credential", "identity"):
        parser.add_argument("--" + option, action="append", default=[])
    parser.add_argument("--device-key")
    parser.add_argument("--trust")
    parser.add_argument("--slot-keys-from", action="append", default=[])
    parser.add_argument("--show-secrets", action="store_true")
    parser.add_argument("--values", action="store_true")
    args = parser.parse_args(argv)

    def read(path):
        return open(path, "rb").read()

    keys = Keys(passphrases=[read(p) for p in args.passphrase_file], key_files=[read(p) for p in args.key_file],
                keyring_keys=[read(p) for p in args.keyring_key],
                credentials=[read(p).decode() for p in args.credential], identities=[read(p).decode() for p in args.identity],
                device_key=read(args.device_key) if args.device_key else None, trust=args.trust,
                slot_files=[read(p) for p in args.slot_keys_from])
    try:
        opened = open_vault(read(args.vault), keys)
        values = values_of(opened) if args.values else None
    except Damaged as error:
        print(f"vault_v3.py: damaged: {error}", file=sys.stderr)
        return 1
    if values is not None:
        fields = ("group", "class", "service", "account", "where", "field")
        print(json.dumps([{**dict(zip(fields, value[:6])), **jsonable(sealed_value(value[6]), args.show_secrets)}
                          for value in sorted(values)], sort_keys=True, indent=1))
        return 0 if any(opens(p) for p in opened.principals) else 3
    shown = {"vault": opened.vault, "principals": opened.principals, "items": opened.items, "trash": opened.trash,
             "tombstones": opened.tombstones, "grants": opened.grants, "unopened": opened.unopened}
    print(json.dumps(jsonable(shown, args.show_secrets), sort_keys=True, indent=1))
    if not any(opens(p) for p in opened.principals):
        print("vault_v3.py: the keys given open nothing", file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
