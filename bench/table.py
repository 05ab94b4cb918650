#!/usr/bin/env python3
"""Renders bench/run.sh's measurements as the Markdown table of RESULTS.md,
with each DESIGN section 9 target (as issue 18 states them) checked.

usage: table.py MEASUREMENTS.tsv SIZES PEER_MAX LARGEST RSS_GET_KB RSS_LIST_KB RSS_FLOOR_KB RSS_SCAN_20000_KB
MEASUREMENTS.tsv holds "size<TAB>name<TAB>median seconds" lines; SIZES holds
"size bytes" lines (the vault file's size at each item count)."""
import sys

measurements_path, sizes_path, peer_max, largest, rss_get, rss_list, rss_floor, rss_scan = sys.argv[1:9]
medians = {}
for line in open(measurements_path):
    size, name, median = line.rstrip("\n").split("\t")
    medians[(int(size), name)] = float(median) * 1000
file_bytes = dict(tuple(map(int, line.split())) for line in open(sizes_path))
sizes = sorted(file_bytes)


def ms(value):
    return f"{value:.1f} ms" if value >= 10 else f"{value:.2f} ms"


def thousands(number):
    return f"{number:,}".replace(",", " ")


def cell(size, name):
    value = medians.get((size, name))
    if value is None:
        return "—"
    return f"{ms(value)} ({value / medians[(size, 'floor')]:.2f}×)"


operations = ["get", "add", "update", "delete", "list", "secret-tool", "pass"]
headings = ["vault get", "vault add", "vault update", "vault delete", "vault list",
            "secret-tool lookup", "pass show"]
print("Median of whole processes (× the floor at the same size):")
print()
print("| items | vault file | floor | " + " | ".join(headings) + " |")
print("|---:|---:|---:|" + "---:|" * len(headings))
for size in sizes:
    row = [thousands(size), f"{file_bytes[size] / 1024:.0f} KiB", ms(medians[(size, "floor")])]
    row += [cell(size, name) for name in operations]
    print("| " + " | ".join(row) + " |")
print()
print(f"secret-tool is filled only up to {thousands(int(peer_max))} items (BENCH_PEER_MAX): every store rewrites "
      "its whole keyring. pass show opens one file whatever the store holds.")
print()
print("Targets (DESIGN §9; issue 18):")
print()


def verdict(ok):
    return "met" if ok else "MISSED"


def ratio_target(name, size, limit):
    """NAME at SIZE items at most LIMIT times the floor at that size."""
    if (size, name) not in medians:
        print(f"- {name} at {thousands(size)} items: not measured in this run")
        return
    ratio = medians[(size, name)] / medians[(size, "floor")]
    print(f"- {name} at {thousands(size)} items: {ms(medians[(size, name)])} = {ratio:.2f}× the floor; "
          f"target ≤ {limit}× — {verdict(ratio <= limit)}")


ratio_target("get", 1000, 1.5)
if (100000, "get") in medians and (1000, "get") in medians:
    small, large = medians[(1000, "get")], medians[(100000, "get")]
    print(f"- get at 100 000 items: {ms(large)} = {large / small:.2f}× get at 1 000 items ({ms(small)}); "
          f"target ≤ 2× — {verdict(large <= 2 * small)}")
else:
    print("- get at 100 000 items against get at 1 000: not measured in this run")
for size in (10000, 100000):
    ratio_target("list", size, 3.0)
if (10000, "floor") in medians:
    floor = medians[(10000, "floor")]
    fsync = max(0.0, medians[(10000, "write+fsync")] - medians[(10000, "write")])
    for name in ("add", "update", "delete"):
        value = medians[(10000, name)]
        print(f"- {name} at 10 000 items: {ms(value)}; target ≤ 3 × {ms(floor)} + one fsync ({ms(fsync)}) "
              f"= {ms(3 * floor + fsync)} — {verdict(value <= 3 * floor + fsync)}")
else:
    print("- add/update/delete at 10 000 items: not measured in this run")
for peer in ("secret-tool", "pass"):
    compared = [size for size in sizes if (size, peer) in medians]
    slower = [size for size in compared if medians[(size, "get")] >= medians[(size, peer)]]
    if not compared:
        print(f"- get faster than {peer}: not measured in this run")
    else:
        where = ", ".join(thousands(size) for size in compared)
        result = "met" if not slower else "MISSED at " + ", ".join(thousands(size) for size in slower)
        print(f"- get faster than {peer} (at {where} items) — {result}")
print()
print(f"Peak RSS at {thousands(int(largest))} items: `vault get` {int(rss_get) / 1024:.1f} MiB, "
      f"`vault list` {int(rss_list) / 1024:.1f} MiB (the floor: {int(rss_floor) / 1024:.1f} MiB).")

bulk = ["list", "env", "export", "redact", "scan", "run20", "inject20", "get"]
bulk_headings = ["vault list", "env --format json", "export --out -", "redact (to first byte)",
                 "scan (one file)", "run, 20 references", "inject, 20 references", "vault get"]
print()
print("Bulk reads (issue 34), median of whole processes (× vault list at the same size):")
print()
print("| items | " + " | ".join(bulk_headings) + " |")
print("|---:|" + "---:|" * len(bulk_headings))


def against_list(size, name):
    value = medians.get((size, name))
    if value is None:
        return "—"
    return f"{ms(value)} ({value / medians[(size, 'list')]:.2f}×)"


for size in sizes:
    print("| " + " | ".join([thousands(size)] + [against_list(size, name) for name in bulk]) + " |")
print()
print("Targets (issue 34):")
print()


def relative_target(name, size, base, limit):
    if (size, name) not in medians or (size, base) not in medians:
        print(f"- {name} at {thousands(size)} items against {base}: not measured in this run")
        return
    ratio = medians[(size, name)] / medians[(size, base)]
    print(f"- {name} at {thousands(size)} items: {ms(medians[(size, name)])} = {ratio:.2f}× {base} "
          f"({ms(medians[(size, base)])}); target ≤ {limit}× — {verdict(ratio <= limit)}")


relative_target("env", 10000, "list", 3.0)
for size in sizes:
    relative_target("redact", size, "list", 3.0)
for size in sizes:
    relative_target("run20", size, "get", 1.5)
print(f"- scan at 20 000 items: peak RSS {int(rss_scan) / 1024:.1f} MiB; target < 100 MB — "
      f"{verdict(int(rss_scan) * 1024 < 100_000_000)}")
