#!/usr/bin/env python3
"""An independent reader of the vault file, format v1, written from
docs/FORMAT.md alone (not from vault's code), so that a test can check that
the committed test vector means what the documentation says.

    vault_v1.py VAULT PASSPHRASE_FILE [DEVICE_KEY_FILE]

Opens VAULT with the passphrase (the file's whole content) and the device key
(32 raw bytes), checks every checksum, MAC and key check on the way, and
prints one JSON object per item, sorted, with the secret as hex. Items of a
device-bound class are left out without a device key. Any check that fails
is an error (exit 1) naming it.
"""
import hashlib
import hmac
import json
import struct
import sys

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

MAGIC = bytes.fromhex("895641554c540d0a")
VERSION = 1
CLASSES = {1: "when-unlocked", 2: "after-first-unlock", 3: "always", 4: "when-unlocked-this-device-only",
           5: "after-first-unlock-this-device-only", 6: "always-this-device-only",
           7: "when-passcode-set-this-device-only"}
DEVICE_BOUND = {4, 5, 6, 7}
TEXT_TAGS = {1: "service", 2: "account", 3: "label", 4: "comment", 5: "kind", 6: "generic", 11: "env_name"}
DATE_TAGS = {7: "created", 8: "modified", 9: "expires"}
SECRET_TAG = 10


class Damaged(Exception):
    pass


class Reader:
    def __init__(self, data):
        self.data, self.at = data, 0

    def take(self, n):
        if self.at + n > len(self.data):
            raise Damaged(f"the file ends at {len(self.data)} where {n} bytes were expected at {self.at}")
        chunk = self.data[self.at:self.at + n]
        self.at += n
        return chunk

    def u8(self):
        return self.take(1)[0]

    def u16(self):
        return struct.unpack(">H", self.take(2))[0]

    def u32(self):
        return struct.unpack(">I", self.take(4))[0]

    def lengthed(self, limit):
        n = self.u32()
        if n > limit:
            raise Damaged(f"a length of {n} over {limit}")
        return self.take(n)


def hkdf(ikm, salt, info):
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=info).derive(ikm)


def derive(vault_id, material, label, context=b""):
    return hkdf(material, vault_id, b"vault v1 " + label.encode() + context)


def mac(key, data):
    return hmac.new(key, data, hashlib.sha256).digest()


def open_sealed(key, sealed, aad, what):
    try:
        return AESGCM(key).decrypt(sealed[:12], sealed[12:], aad)
    except Exception as error:
        raise Damaged(f"{what} does not open") from error


def read_vault(data, passphrase, device_key):
    r = Reader(data)
    if r.take(8) != MAGIC:
        raise Damaged("bad magic")
    if r.u16() != VERSION:
        raise Damaged("not version 1")
    vault_id = r.take(16)
    device_check = r.take(16)
    r.lengthed(60)  # HMK under the device key: not needed with a passphrase
    slots = []
    for _ in range(r.u8()):
        start = r.at
        kind, salt, log_n, cost_r, cost_p = r.u8(), r.take(16), r.u8(), r.u32(), r.u32()
        check = r.take(16)
        describing = data[start:r.at]
        slots.append((kind, salt, log_n, cost_r, cost_p, check, describing, r.take(60)))
    class_entries = [(r.u8(), r.take(60)) for _ in range(r.u8())]
    group_entries = []
    for _ in range(r.u32()):
        group_id = r.u32()
        key_check = r.take(16)
        name_and_key = r.lengthed(256)
        r.lengthed(256)  # the device grant: the always classes without an unlock
        group_entries.append((group_id, key_check, name_and_key))
    parameters_end = r.at
    checksum = r.take(32)
    if hashlib.sha256(data[:parameters_end]).digest() != checksum:
        raise Damaged("the header checksum")
    header_mac = r.take(32)
    count = r.u32()
    index = []
    for _ in range(count):
        raw = r.take(41)
        record_id, tag = raw[:16], raw[16:32]
        group_id, class_id, length = struct.unpack(">IBI", raw[32:])
        index.append((raw, record_id, tag, group_id, class_id, length))
    index_macs = [r.take(32) for _ in group_entries]
    records = [r.take(entry[5]) for entry in index]
    if r.at != len(data):
        raise Damaged("bytes after the last record")

    master_key = None
    for kind, salt, log_n, cost_r, cost_p, check, describing, wrapped in slots:
        if kind != 1:
            continue
        kek = hashlib.scrypt(passphrase, salt=salt, n=1 << log_n, r=cost_r, p=cost_p, maxmem=1 << 30, dklen=32)
        if mac(kek, b"vault v1 keyslot check" + vault_id)[:16] == check:
            master_key = open_sealed(kek, wrapped, vault_id + describing, "the wrapped master key")
            break
    if master_key is None:
        raise Damaged("no passphrase keyslot opens with this passphrase")
    header_mac_key = derive(vault_id, master_key, "header mac")
    if mac(header_mac_key, data[:parameters_end + 32]) != header_mac:
        raise Damaged("the header MAC")
    wrap_key = derive(vault_id, master_key, "key wrap")
    class_keys = {cid: open_sealed(wrap_key, sealed, b"class" + vault_id + bytes([cid]), f"class key {cid}")
                  for cid, sealed in class_entries}
    groups = {}
    for (group_id, key_check, sealed), stored_mac in zip(group_entries, index_macs):
        plain = open_sealed(wrap_key, sealed, b"group" + vault_id + struct.pack(">I", group_id), f"group {group_id}")
        name, group_key = plain[:-32].decode("utf-8"), plain[-32:]
        if mac(group_key, b"vault v1 group key check" + vault_id + struct.pack(">I", group_id))[:16] != key_check:
            raise Damaged(f"the key check of group {name}")
        index_mac_key = derive(vault_id, group_key, "index mac")
        entries = b"".join(entry[0] for entry in index if entry[3] == group_id)
        if mac(index_mac_key, vault_id + struct.pack(">I", group_id) + entries) != stored_mac:
            raise Damaged(f"the index MAC of group {name}")
        groups[group_id] = (name, group_key, derive(vault_id, group_key, "lookup"))
    device_matches = device_key is not None and mac(device_key, b"vault v1 device check" + vault_id)[:16] == device_check

    items = []
    for (raw, record_id, tag, group_id, class_id, _), sealed in zip(index, records):
        name, group_key, lookup_key = groups[group_id]
        if class_id in DEVICE_BOUND and not device_matches:
            continue
        base = derive(vault_id, group_key + class_keys[class_id], "base", struct.pack(">IB", group_id, class_id))
        material = base + device_key if class_id in DEVICE_BOUND else base
        record_key = derive(vault_id, material, "record", record_id)
        aad = vault_id + record_id + struct.pack(">IBH", group_id, class_id, VERSION)
        item = {"group": name, "class": CLASSES[class_id]}
        item.update(parse_record(open_sealed(record_key, sealed, aad, "a record")))
        lookup = b"".join(struct.pack(">I", len(v)) + v for v in (item["service"].encode(), item["account"].encode()))
        if mac(lookup_key, lookup)[:16] != tag:
            raise Damaged(f"the lookup tag of {item['service']}/{item['account']}")
        items.append(item)
    return sorted(items, key=lambda item: (item["group"], item["service"], item["account"]))


def parse_record(plain):
    r = Reader(plain)
    item = {}
    while r.at < len(plain):
        tag = r.u8()
        value = r.lengthed(len(plain))
        if tag in TEXT_TAGS:
            item[TEXT_TAGS[tag]] = value.decode("utf-8")
        elif tag in DATE_TAGS:
            item[DATE_TAGS[tag]] = struct.unpack(">q", value)[0]
        elif tag == SECRET_TAG:
            item["secret_hex"] = value.hex()
    for required in ("service", "account", "secret_hex", "created", "modified"):
        if required not in item:
            raise Damaged(f"a record without {required}")
    return item


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__.strip().splitlines()[3].strip(), file=sys.stderr)
        return 2
    data = open(sys.argv[1], "rb").read()
    passphrase = open(sys.argv[2], "rb").read()
    device_key = open(sys.argv[3], "rb").read() if len(sys.argv) == 4 else None
    try:
        items = read_vault(data, passphrase, device_key)
    except Damaged as error:
        print(f"vault_v1.py: damaged or wrong key: {error}", file=sys.stderr)
        return 1
    for item in items:
        print(json.dumps(item, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
