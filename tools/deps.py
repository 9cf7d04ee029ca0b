#!/usr/bin/env python3
"""deps.py - the dependency graph of bench-coord's C sources, read from the code.

Prints
  1. cycles of the file-level #include graph (a header that ends up including
     itself through others; include guards hide these, the compiler does not),
  2. cycles between modules: a module is a .c with the header of the same
     name beside or above it (job.c + engine/job.h, wire/hist.c + wire/hist.h), a
     header without such a .c is a module of its own (report/writers.h). A depends on
     B when a file of A #includes a header of B; with --objects, also when A's
     object file uses a symbol that B's object defines (calls through a header
     shared by several modules show up only this way),
  3. folder-level dependencies (coordinator/run -> common/profile ...) with
     their cycles and the layer rules they break: common/ depends on nothing
     above it, agent/ and coordinator/ never on each other. A file at a part's
     root (main.c) counts as a folder of its own.

Usage (from the repository root; --objects needs a build and binutils' nm):
  python3 tools/deps.py                       # includes only
  python3 tools/deps.py --objects build       # includes and symbol uses
  python3 tools/deps.py --objects build -v    # and every module's dependencies
Exit status 0, or 1 with --strict when any cycle or layer violation is found.
Python 3 standard library only.
"""

import argparse
import os
import re
import subprocess
import sys
from collections import defaultdict

PARTS = ("common", "agent", "coordinator")
# which part may depend on which: the layers of docs/architecture.md
ALLOWED = {"common": {"common"}, "agent": {"agent", "common"},
           "coordinator": {"coordinator", "common"}}
INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def s_sources(root):
    """every .c and .h under the parts, as paths relative to root"""
    out = []
    for part in PARTS:
        for d, dirs, files in os.walk(os.path.join(root, part)):
            dirs.sort()
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    out.append(os.path.relpath(os.path.join(d, f), root))
    return out


def s_part(path):
    return path.split(os.sep)[0]


def s_folder(path):
    """a module's folder; a file at a part's root (main.c, a header still shared
    by the whole part, a file not yet moved into its folder) stands for itself"""
    d = os.path.dirname(path)
    return path if d in PARTS else d


def s_stem(path):
    """a file's module key: its folder and its name without the extension"""
    return path[:-2]


def s_resolve(inc, src, files):
    """the tree file an #include "inc" in src names, or None (not ours): the
    including file's folder first, then the part roots it sees (its own part
    and common/), as the compiler's quote search and -I order would"""
    here = os.path.normpath(os.path.join(os.path.dirname(src), inc))
    if here in files:
        return here
    for part in (s_part(src), "common"):
        t = os.path.normpath(os.path.join(part, inc))
        if t in files:
            return t
    return None


def s_scc(nodes, edges):
    """strongly connected components of more than one node (Tarjan, iterative)"""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(edges.get(nxt, ())))))
                elif nxt in on:
                    low[v] = min(low[v], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return sorted(out)


def s_nm(obj, defined):
    args = ["nm", "-P", "--defined-only" if defined else "--undefined-only", obj]
    res = subprocess.run(args, capture_output=True, text=True, check=True)
    syms = set()
    for line in res.stdout.splitlines():
        f = line.split()
        # global code and data only (T D B R, and C for common symbols)
        if len(f) >= 2 and (not defined or f[1] in "TDBRCGSV"):
            syms.add(f[0])
    return syms


def s_objects(build, files):
    """source path -> object file, from CMake's CMakeFiles/<target>.dir/<source>.o"""
    out = {}
    for d, _, names in os.walk(os.path.join(build, "CMakeFiles")):
        for n in names:
            if not n.endswith(".c.o"):
                continue
            full = os.path.join(d, n)
            rel = full.split(".dir" + os.sep, 1)[-1][:-2]
            if rel in files and rel not in out:
                out[rel] = full
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=".", help="repository root (default .)")
    ap.add_argument("--objects", metavar="BUILD", help="also symbol uses, from BUILD's objects")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every module's edges")
    ap.add_argument("--strict", action="store_true", help="exit 1 on any cycle or violation")
    opt = ap.parse_args()

    files = s_sources(opt.root)
    fileset = set(files)

    # 1. file-level include graph
    incl = defaultdict(set)
    for f in files:
        with open(os.path.join(opt.root, f), encoding="utf-8", errors="replace") as fh:
            for inc in INCLUDE_RE.findall(fh.read()):
                t = s_resolve(inc, f, fileset)
                if t and t != f:
                    incl[f].add(t)
    file_cycles = s_scc(files, incl)

    # 2. modules: a .c and its same-named header beside it
    cfiles = {s_stem(f): f for f in files if f.endswith(".c")}
    module = {}
    for f in files:
        owner = cfiles.get(s_stem(f)) if f.endswith(".h") else f
        module[f] = owner or f
    why = defaultdict(lambda: defaultdict(set))  # why[a][b] = {"x.h", "bc_fn()"}
    for f, targets in incl.items():
        for t in targets:
            a, b = module[f], module[t]
            if a != b:
                why[a][b].add(os.path.basename(t))
    if opt.objects:
        objs = s_objects(opt.objects, fileset)
        if not objs:
            sys.exit("deps.py: no object files of the tree under '%s' (build first)" % opt.objects)
        definer = {}
        for src, o in objs.items():
            for s in s_nm(o, True):
                definer.setdefault(s, src)
        for src, o in objs.items():
            for s in s_nm(o, False):
                t = definer.get(s)
                if t and module[t] != module[src]:
                    why[module[src]][module[t]].add(s + "()")
    mods = sorted(set(module.values()))
    medges = {a: set(bs) for a, bs in why.items()}
    mod_cycles = s_scc(mods, medges)

    # 3. folders
    fwhy = defaultdict(lambda: defaultdict(int))
    for a, bs in medges.items():
        for b in bs:
            if s_folder(a) != s_folder(b):
                fwhy[s_folder(a)][s_folder(b)] += 1
    folders = sorted({s_folder(m) for m in mods})
    fold_cycles = s_scc(folders, {a: set(bs) for a, bs in fwhy.items()})
    violations = [(a, b, n) for a, bs in sorted(fwhy.items()) for b, n in sorted(bs.items())
                  if s_part(b) not in ALLOWED[s_part(a)]]

    def name(m):
        hs = sorted(os.path.basename(f) for f in files if module[f] == m and f != m)
        return m + (" (+ " + ", ".join(hs) + ")" if hs else "")

    print("# include cycles between files: %d" % len(file_cycles))
    for c in file_cycles:
        print("  " + " <-> ".join(c))
    print()
    src = "#include" + (" and symbol uses" if opt.objects else " only")
    print("# cycles between modules (%s): %d" % (src, len(mod_cycles)))
    for c in mod_cycles:
        print("  cycle of %d:" % len(c))
        for a in c:
            for b in sorted(medges.get(a, ())):
                if b in c:
                    ev = sorted(why[a][b])
                    more = " ..." if len(ev) > 4 else ""
                    print("    %s -> %s: %s%s" % (a, b, " ".join(ev[:4]), more))
    print()
    print("# folder dependencies (modules of one folder using another's)")
    for a in folders:
        deps = ", ".join("%s (%d)" % (b, n) for b, n in sorted(fwhy[a].items()))
        print("  %s -> %s" % (a, deps or "-"))
    print()
    print("# folder cycles: %d" % len(fold_cycles))
    for c in fold_cycles:
        print("  " + " <-> ".join(c))
    print()
    print("# layer violations (common below agent and coordinator, those two apart): %d"
          % len(violations))
    for a, b, n in violations:
        print("  %s -> %s (%d)" % (a, b, n))
    if opt.verbose:
        print()
        print("# module dependencies")
        for a in mods:
            print("  %s" % name(a))
            for b in sorted(medges.get(a, ())):
                print("    -> %s: %s" % (b, " ".join(sorted(why[a][b]))))
    bad = file_cycles or mod_cycles or fold_cycles or violations
    return 1 if opt.strict and bad else 0


if __name__ == "__main__":
    sys.exit(main())
