"""What a removed member's keys open in every copy of a vault file, through the independent
reader Tests/FormatReader/vault_v3.py (written from docs/FORMAT.md alone).

    removed-member-probe.py IDENTITY WATCHED_HEX_FILE COPY...

Finds the copies where IDENTITY opens a member slot (the member's old slots), then opens every
copy with the keys of all those slots (and its own slot there, if any) and prints one JSON object:
{"slotted": [copies with a slot of IDENTITY], "opened": {copy: [watched values it opens]}}, where
the watched values are the hex strings, one a line, of WATCHED_HEX_FILE (the secrets written after
the member's removal). A copy the reader finds damaged is listed under "damaged"."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "FormatReader"))
import vault_v3  # noqa: E402


def main(argv):
    identity = open(argv[0]).read()
    watched = {line.strip() for line in open(argv[1]) if line.strip()}
    copies = {path: open(path, "rb").read() for path in argv[2:]}
    slotted, damaged, generations = [], {}, {}
    for path, data in copies.items():
        try:
            parsed = vault_v3.parse(data)
            if vault_v3.identity_principals(parsed, identity):
                slotted.append(path)
                # One copy per key generation: every key change raises the key epoch.
                generations.setdefault((parsed["key_epoch"], tuple(g["key_check"] for g in parsed["groups"])), data)
        except vault_v3.Damaged as error:
            damaged[path] = str(error)
    keys = vault_v3.Keys(identities=[identity], slot_files=list(generations.values()))
    opened = {}
    for path, data in copies.items():
        if path in damaged:
            continue
        try:
            values = vault_v3.opened_values(data, keys)
        except vault_v3.Damaged as error:
            damaged[path] = str(error)
            continue
        found = sorted({value[6].hex() for value in values} & watched)
        if found:
            opened[path] = found
    print(json.dumps({"slotted": slotted, "opened": opened, "damaged": damaged}, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1:])
