"""The sealed records of a vault file's versions, counted by the independent reader
(Tests/FormatReader/vault_v3.py), for ExposureScaleTests: how many distinct records the versions'
indexes hold (one sha256 of the sealed bytes each), and how many index entries they hold in all
(what opening every record of every version would decrypt). Records in the trash are not counted.

Usage: sealed-records.py FILE… ; prints {"distinct": N, "entries": M}.
"""
import hashlib
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "FormatReader"))
import vault_v3 as reader  # noqa: E402


def main(paths):
    distinct, entries = set(), 0
    for path in paths:
        with open(path, "rb") as file:
            parsed = reader.parse(file.read())
        for entry in parsed["index"]:
            distinct.add(hashlib.sha256(entry["sealed"]).digest())
            entries += 1
    print(json.dumps({"distinct": len(distinct), "entries": entries}))


if __name__ == "__main__":
    main(sys.argv[1:])
