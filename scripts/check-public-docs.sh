#!/bin/sh
# Fails, listing each one, when a public declaration of VaultCore or
# VaultCrypto has no `///` doc comment right above it (attributes such as
# @discardableResult may sit between). Public means: marked `public`, a case
# of a public enum, or a member of a public protocol. Run by
# Tests/VaultCoreTests/PublicDocsTests.swift; usage: check-public-docs.sh [DIR…]
set -eu
cd "$(dirname "$0")/.."
[ "$#" -gt 0 ] || set -- Sources/VaultCore Sources/VaultCrypto
exec python3 - "$@" <<'PYTHON'
import os
import re
import sys

DECLARATION = re.compile(r"\b(var|let|func|init|subscript|typealias|associatedtype|struct|class|enum|protocol|extension|actor)\b")
TYPE_HEADER = re.compile(r"\b(struct|class|enum|protocol|extension|actor)\s+[\w.]+")
ATTRIBUTE_ONLY = re.compile(r"^(@[\w.]+(\([^)]*\))?\s*)+$")
NOT_PUBLIC = re.compile(r"\b(private|fileprivate|internal)\b(?!\(set\))")


def code_only(line, state):
    """The line without comments and string contents; state tracks /* */ and \"\"\" blocks."""
    out, i = [], 0
    while i < len(line):
        if state["comment"]:
            end = line.find("*/", i)
            if end < 0:
                return "".join(out)
            state["comment"], i = False, end + 2
        elif state["string"]:
            end = line.find('"""', i)
            if end < 0:
                return "".join(out)
            state["string"], i = False, end + 3
        elif line.startswith("//", i):
            break
        elif line.startswith("/*", i):
            state["comment"], i = True, i + 2
        elif line.startswith('"""', i):
            state["string"], i = True, i + 3
        elif line[i] == '"':
            i += 1
            while i < len(line) and line[i] != '"':
                i += 2 if line[i] == "\\" else 1
            out.append('""')
            i += 1
        else:
            out.append(line[i])
            i += 1
    return "".join(out)


def head(code):
    """The words of a declaration before its name's parameters, type or value."""
    code = re.sub(r"^\s*(@[\w.]+(\([^)]*\))?\s*)+", "", code)
    return re.split(r"[(:={<]", code, maxsplit=1)[0]


def has_doc(lines, index):
    """Whether a /// line (or the end of a /** block) sits above line `index`, past attributes."""
    index -= 1
    while index >= 0 and ATTRIBUTE_ONLY.match(lines[index].strip()):
        index -= 1
    above = lines[index].strip() if index >= 0 else ""
    return above.startswith("///") or (above.endswith("*/") and not above.startswith("//"))


def undocumented(path):
    with open(path, encoding="utf-8") as file:
        lines = file.read().split("\n")
    state = {"comment": False, "string": False}
    scopes = []            # one entry per open brace: the kind of scope it opens
    pending = "other"      # the scope the next brace opens
    found = []
    for index, line in enumerate(lines):
        code = code_only(line, state)
        words = head(code)
        inside = scopes[-1] if scopes else "file"
        public = re.search(r"\bpublic\b", words) is not None
        if code.strip():
            if public:
                needed = True
            elif inside == "public enum":
                needed = re.match(r"\s*(indirect\s+)?case\b", code) is not None
            elif inside == "public protocol":
                needed = DECLARATION.search(words) is not None and not NOT_PUBLIC.search(words)
            else:
                needed = False
            if needed and not has_doc(lines, index):
                found.append(f"{path}:{index + 1}: {line.strip()}")
            header = TYPE_HEADER.search(words)
            if header:
                kind = header.group(1)
                pending = f"public {kind}" if public and kind in ("enum", "protocol") else "other"
        for char in code:
            if char == "{":
                scopes.append(pending)
                pending = "other"
            elif char == "}" and scopes:
                scopes.pop()
    return found


missing = []
for root in sys.argv[1:]:
    for directory, _, names in sorted(os.walk(root)):
        for name in sorted(names):
            if name.endswith(".swift"):
                missing += undocumented(os.path.join(directory, name))
for entry in missing:
    print(entry)
if missing:
    print(f"check-public-docs: {len(missing)} public declaration(s) without a /// doc comment", file=sys.stderr)
    sys.exit(1)
PYTHON
