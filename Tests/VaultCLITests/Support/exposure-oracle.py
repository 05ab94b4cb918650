"""The oracle of ExposureTests: every value each member could open in any version of a vault file,
found with the independent reader (Tests/FormatReader/vault_v3.py) and no code of vault's.

A member holds the keys its slot carried in every version it had one: a scoped member's group
grants, a full member's header MAC and wrap keys. Each such key set is tried on every version (as a
member that kept its old identity and a clone of the repository would): what opens is exposed.

A credential (`vault grant`) is its file as it was written: its keys tried on every version, expired
or not (the reader checks no expiry, as a bearer of the file would not).

Usage: exposure-oracle.py SPEC.json, where SPEC is {"versions": [path…], "identities": {name: path},
"credentials": {grant id: path}}. Prints {name or grant id: [every value opened, as text, sorted]}.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "FormatReader"))
import vault_v3 as reader  # noqa: E402


def held_keys(versions, identity):
    """Every distinct key set the identity's slot carried in any version: one principal per group grant
    (a version opens a group with one grant of it at a time), and the full member's keys."""
    found, seen = [], set()
    for data in versions:
        f = reader.parse(data)
        for principal in reader.identity_principals(f, identity):
            if principal["member"] == "full":
                marker = ("full", principal["header_mac_key"], principal["wrap_key"])
                if marker not in seen:
                    seen.add(marker)
                    found.append({"kind": "member", "member": "full", "name": principal["name"],
                                  "header_mac_key": principal["header_mac_key"], "wrap_key": principal["wrap_key"]})
                continue
            for grant in principal["grants"]:
                marker = ("grant", grant["id"], grant["key_check"])
                if marker not in seen:
                    seen.add(marker)
                    found.append({"kind": "credential", "vault_id": f["vault_id"], "version": principal["version"],
                                  "read_only_flag": True, "expires": 0, "issued": 0, "grants": [grant]})
    return found


def opened_by(versions, keys):
    values = set()
    for data in versions:
        for principal in keys:
            try:
                opened = reader.open_vault(data, reader.Keys(), given=[principal])
            except reader.Damaged:
                continue  # a full member's keys of another master key: the header MAC does not check
            values |= {value[6].decode("utf-8") for value in reader.values_of(opened)}
    return values


def main(spec_path):
    spec = json.load(open(spec_path))
    versions = [open(path, "rb").read() for path in spec["versions"]]
    result = {}
    for name, path in spec["identities"].items():
        identity = open(path).read()
        result[name] = sorted(opened_by(versions, held_keys(versions, identity)))
    for grant_id, path in spec.get("credentials", {}).items():
        result[grant_id] = sorted(opened_by(versions, [reader.credential_principal(open(path).read())]))
    print(json.dumps(result, sort_keys=True, indent=1))


if __name__ == "__main__":
    main(sys.argv[1])
