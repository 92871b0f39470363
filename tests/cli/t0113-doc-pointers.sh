#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0113-doc-pointers: every docs/NAME.md the sources mention exists, and every docs/NAME.md#anchor
# inside a C string (what a message or --help shows a user) names a heading of that file (GitHub's
# anchor rule: lower case, punctuation dropped, spaces to hyphens).
. "$(dirname "$0")/lib.sh"
need_cmd python3
cd "$ROOT"
if python3 - <<'PY'; then
import os, re, sys

def slug(heading):
    h = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return h.replace(" ", "-")

anchors = {}
def headings(doc):
    if doc not in anchors:
        anchors[doc] = {slug(m.group(1)) for m in re.finditer(r"^#+\s+(.*)$", open(doc).read(), re.M)}
    return anchors[doc]

bad = checked = 0
for top in ("user", "asm-ref", "bpf", "flamegraph"):
    for folder, _, files in os.walk(top):
        for name in sorted(files):
            if not name.endswith((".c", ".h", ".S", ".def", ".inc")):
                continue
            path = os.path.join(folder, name)
            for n, line in enumerate(open(path, errors="replace"), 1):
                for m in re.finditer(r"docs/([A-Za-z0-9_.-]+\.md)(#[A-Za-z0-9_-]+)?", line):
                    doc, anchor = "docs/" + m.group(1), m.group(2)
                    checked += 1
                    if not os.path.isfile(doc):
                        print(f"{path}:{n}: {doc} does not exist"); bad += 1
                    elif anchor and line[:m.start()].count('"') % 2 == 1 and anchor[1:] not in headings(doc):
                        print(f"{path}:{n}: {doc} has no heading for {anchor}"); bad += 1
print(f"{checked} pointers to docs/ checked, {bad} broken")
sys.exit(1 if bad else 0)
PY
	pass "every docs/ pointer in the sources names a file, and every anchor a heading"
else
	fail "a source points to documentation that does not exist (above)"
fi
exit 0
