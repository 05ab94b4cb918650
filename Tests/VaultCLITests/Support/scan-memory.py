"""Prints one line per copy of $NEEDLE in the memory of process argv[1]:
"locked" or "unlocked" (the VmFlags of its mapping in /proc/PID/smaps have
"lo" or not), then the mapping's name. Reading another process's memory needs
ptrace rights over it (root, for vault, which is not dumpable)."""
import os
import re
import sys

pid = int(sys.argv[1])
needle = os.environ["NEEDLE"].encode()
mappings = []
for line in open(f"/proc/{pid}/smaps"):
    match = re.match(r"^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$", line)
    if match:
        mappings.append({"low": int(match[1], 16), "high": int(match[2], 16), "perms": match[3], "name": match[4], "locked": False})
    elif line.startswith("VmFlags:"):
        mappings[-1]["locked"] = " lo" in line
with open(f"/proc/{pid}/mem", "rb", 0) as memory:
    for mapping in mappings:
        if "r" not in mapping["perms"] or mapping["name"] == "[vvar]":
            continue
        try:
            memory.seek(mapping["low"])
            data = memory.read(mapping["high"] - mapping["low"])
        except OSError:
            continue
        start = data.find(needle)
        while start >= 0:
            print("locked" if mapping["locked"] else "unlocked", mapping["name"] or "(anonymous)")
            start = data.find(needle, start + 1)
