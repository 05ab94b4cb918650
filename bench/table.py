#!/usr/bin/env python3
"""Renders bench/run.sh's measurements as the Markdown table of RESULTS.md,
with each DESIGN section 9 target checked.

usage: table.py MEASUREMENTS.tsv SIZES PEER_MAX LARGEST RSS_GET_KB RSS_FLOOR_KB
MEASUREMENTS.tsv holds "size<TAB>name<TAB>median seconds" lines; SIZES holds
"size bytes" lines (the vault file's size at each item count)."""
import sys

measurements_path, sizes_path, peer_max, largest, rss_get, rss_floor = sys.argv[1:7]
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
print("Targets (DESIGN §9):")
print()


def check(label, value, limit, limit_text):
    verdict = "met" if value <= limit else "MISSED"
    print(f"- {label}: {value:.2f}× the floor; target ≤ {limit_text} — {verdict}")


for size, limit in ((1000, 1.5), (100000, 2.0)):
    if (size, "get") in medians:
        check(f"get at {thousands(size)} items", medians[(size, "get")] / medians[(size, "floor")], limit, f"{limit}×")
    else:
        print(f"- get at {thousands(size)} items: not measured in this run")
if (10000, "floor") in medians:
    floor = medians[(10000, "floor")]
    fsync = max(0.0, medians[(10000, "write+fsync")] - medians[(10000, "write")])
    for name in ("add", "update", "delete"):
        value = medians[(10000, name)]
        verdict = "met" if value <= 3 * floor + fsync else "MISSED"
        print(f"- {name} at 10 000 items: {ms(value)}; target ≤ 3 × {ms(floor)} + one fsync ({ms(fsync)}) "
              f"= {ms(3 * floor + fsync)} — {verdict}")
else:
    print("- add/update/delete at 10 000 items: not measured in this run")
for peer in ("secret-tool", "pass"):
    compared = [size for size in sizes if (size, peer) in medians]
    slower = [size for size in compared if medians[(size, "get")] >= medians[(size, peer)]]
    if not compared:
        print(f"- get faster than {peer}: not measured in this run")
    else:
        where = ", ".join(thousands(size) for size in compared)
        verdict = "met" if not slower else "MISSED at " + ", ".join(thousands(size) for size in slower)
        print(f"- get faster than {peer} (at {where} items) — {verdict}")
print()
print(f"Peak RSS of `vault get` at {thousands(int(largest))} items: {int(rss_get) / 1024:.1f} MiB "
      f"(the floor: {int(rss_floor) / 1024:.1f} MiB).")
