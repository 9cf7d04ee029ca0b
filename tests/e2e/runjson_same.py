#!/usr/bin/env python3
"""runjson_same.py A.json B.json [KEY...]: exit 0 when the two run.json files hold the same
figures: every key and value equal, numbers exactly, except the keys named (at any depth)
and "seconds_bin_step" (where a step's seconds are in seconds.bin, absent before it). Prints
the first differences by JSON path."""
import json
import sys

IGNORE = {"seconds_bin_step"} | set(sys.argv[3:])
diffs = []


def cmp(a, b, path):
    if len(diffs) > 20:
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k in IGNORE:
                continue
            if k not in a or k not in b:
                diffs.append("%s.%s: only in %s" % (path, k, "A" if k in a else "B"))
                continue
            cmp(a[k], b[k], "%s.%s" % (path, k))
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            diffs.append("%s: %d items vs %d" % (path, len(a), len(b)))
            return
        for i, (x, y) in enumerate(zip(a, b)):
            cmp(x, y, "%s[%d]" % (path, i))
    elif a != b or type(a) is not type(b) and not (
            isinstance(a, (int, float)) and isinstance(b, (int, float))):
        diffs.append("%s: %r vs %r" % (path, a, b))


with open(sys.argv[1]) as f:
    A = json.load(f)
with open(sys.argv[2]) as f:
    B = json.load(f)
cmp(A, B, "run")
for d in diffs:
    print(d)
sys.exit(1 if diffs else 0)
