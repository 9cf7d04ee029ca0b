#!/usr/bin/env python3
"""check_docs.py - README.md, docs/*.md, reports/README.md and the man pages name only what
exists: every repository path they write (a file or folder under one of the repository's
top-level folders, a header or source written from a part root as includes write it, a
relative Markdown link) must exist in the tree, and none of them may carry a commit hash
(history belongs in commit bodies; docs describe the present).

A path counts when its first component is a top-level entry of the repository (agent/,
docs/, tests/, ...) or, for .c and .h names, a folder of a part (report/expect.h is
coordinator/report/expect.h). A glob (tests/e2e/test_*.sh), a brace list
(profile/volume/fdp.{h,c}) or a name with a placeholder (tests/unit/test_<module>.c) must
match something; a path git ignores (a run directory under reports/) is output, not ours. Paths of other projects (fio's
engines/nvme.c, the kernel's drivers/nvme/host/fabrics.c) start elsewhere and are not ours.

A commit hash is a word of 7 to 40 hex digits with a digit and a letter in it: outside code
blocks always, inside a code block when git resolves it as a commit of this repository.

docs/testing.md is the map of the tests: every test it names (test_x, fuzz_x, or a pattern
test_faults_*) must be a ctest test of the tree, and every ctest test must be named there. The
tests are read from the tree as tests/CMakeLists.txt makes them: one per tests/unit/test_*.c
and tests/{e2e,multihost,vmlab}/test_*.sh, one per case of its foreach(case ...) lists, the
fuzz targets of tests/fuzz/CMakeLists.txt, this check itself (test_docs) and the
dependency check (test_deps).

Usage: check_docs.py [REPO]   (exit 0 clean, 1 with one line per finding: file:line: what)
Python 3 standard library only; git is used when REPO is a git checkout.
"""

import glob
import os
import re
import subprocess
import sys

PARTS = ("common", "agent", "coordinator")
# a word that looks like a path: letters, digits, _ . - / * { } , (braces for {h,c} lists)
PATH_RE = re.compile(r"(?<![\w./*{}<>$-])((?:\.?[\w*-]+|\{[\w,.]+\})(?:/(?:[\w*.-]|\{[\w,.]+\})+)*"
                     r"(?:/|\.\{[\w,]+\}|\.[A-Za-z0-9]+)?)")
HEX_RE = re.compile(r"(?<![\w./:#-])([0-9a-f]{7,40})(?![\w/-])")
LINK_RE = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")
EXT_SOURCE = (".c", ".h")


def s_docs(root):
    out = [os.path.join(root, "README.md"), os.path.join(root, "reports", "README.md")]
    out += sorted(glob.glob(os.path.join(root, "docs", "*.md")))
    out += sorted(glob.glob(os.path.join(root, "man", "*.[0-9]")))
    return [f for f in out if os.path.isfile(f)]


def s_expand(tok):
    """a brace list expanded: a.{h,c} -> [a.h, a.c]"""
    m = re.search(r"\{([^{}]*)\}", tok)
    if not m:
        return [tok]
    out = []
    for alt in m.group(1).split(","):
        out += s_expand(tok[:m.start()] + alt + tok[m.end():])
    return out


def s_exists(root, rel):
    rel = rel.rstrip("/")
    if any(c in rel for c in "*?["):
        return bool(glob.glob(os.path.join(root, rel)))
    return os.path.exists(os.path.join(root, rel))


class Checker:
    def __init__(self, root):
        self.root = root
        self.top = {e for e in os.listdir(root) if not e.startswith(".git")} - {"build"}
        self.part_dirs = set()
        for p in PARTS:
            d = os.path.join(root, p)
            if os.path.isdir(d):
                self.part_dirs |= {e for e in os.listdir(d) if os.path.isdir(os.path.join(d, e))}
        self.git = os.path.isdir(os.path.join(root, ".git")) or os.path.isfile(
            os.path.join(root, ".git"))
        self.findings = []
        self.commits = {}

    def is_commit(self, word):
        if not self.git:
            return False
        if word not in self.commits:
            r = subprocess.run(["git", "-C", self.root, "cat-file", "-e", word + "^{commit}"],
                               capture_output=True)
            self.commits[word] = r.returncode == 0
        return self.commits[word]

    def ignored(self, rel):
        """a path git ignores (a run directory under reports/, build output) is where the
        program writes, not a file of the repository"""
        if not self.git:
            return False
        rel = rel.rstrip("/")
        for p in (rel, rel + "/"):
            r = subprocess.run(["git", "-C", self.root, "check-ignore", "-q", "--no-index", p],
                               capture_output=True)
            if r.returncode == 0:
                return True
        return False

    def path_ok(self, tok, pattern=False):
        """None when tok is not one of our paths; else whether it exists. pattern: tok is
        the fixed start of a name written with a placeholder (tests/unit/test_<module>.c)"""
        first = tok.split("/")[0]
        if "/" not in tok:
            return None
        if pattern:
            tok += "*"
        if first in self.top:
            if self.ignored(tok.replace("*", "x")):
                return None
            return all(s_exists(self.root, t) for t in s_expand(tok))
        if first in self.part_dirs and (tok.endswith(EXT_SOURCE) or tok.endswith("}")
                                        or tok.endswith("/")):
            for t in s_expand(tok):
                if not any(s_exists(self.root, os.path.join(p, t)) for p in PARTS):
                    return False
            return True
        return None

    def check(self, path):
        rel = os.path.relpath(path, self.root)
        fence = False
        with open(path, encoding="utf-8", errors="replace") as fh:
            lines = fh.read().split("\n")
        for n, line in enumerate(lines, 1):
            if line.lstrip().startswith("```"):
                fence = not fence
                continue
            text = line.replace("\\-", "-").replace("\\fB", "").replace("\\fI", "").replace(
                "\\fR", "").replace("\\fP", "")
            for m in PATH_RE.finditer(text):
                tok = m.group(1).rstrip(".,;:")
                pattern = text[m.end():m.end() + 1] == "<"
                ok = self.path_ok(tok, pattern)
                if ok is False:
                    self.findings.append("%s:%d: %s does not exist" % (rel, n, tok))
            if rel.endswith(".md"):
                for link in LINK_RE.findall(text):
                    if re.match(r"[a-z]+:", link):
                        continue
                    target = os.path.normpath(os.path.join(os.path.dirname(path), link))
                    if not os.path.exists(target):
                        self.findings.append("%s:%d: link %s does not exist" % (rel, n, link))
            for word in HEX_RE.findall(text):
                if not (re.search(r"[0-9]", word) and re.search(r"[a-f]", word)):
                    continue
                if self.is_commit(word) or not fence:
                    self.findings.append("%s:%d: %s looks like a commit hash (history goes in "
                                         "commit bodies)" % (rel, n, word))


def s_tests(root):
    """the ctest names tests/CMakeLists.txt makes, read from the tree"""
    t = os.path.join(root, "tests")
    names = {"test_docs", "test_deps"}
    for sub, ext in (("unit", ".c"), ("e2e", ".sh"), ("multihost", ".sh"), ("vmlab", ".sh")):
        for f in glob.glob(os.path.join(t, sub, "test_*" + ext)):
            names.add(os.path.basename(f)[:-len(ext)])
    cm = open(os.path.join(t, "CMakeLists.txt"), encoding="utf-8").read()
    for cases, prefix in re.findall(r"foreach\(case\s+([^)]*)\)\s*add_test\(NAME\s+([\w]+)\$\{case\}",
                                    cm):
        names |= {prefix + c for c in cases.split()}
    # bc_faults_cases(SCRIPT PREFIX CASE...): test_faults_<prefix><case>
    for prefix, cases in re.findall(r'bc_faults_cases\(\S+\s+"?(\w*)"?\s+([^)]*)\)', cm):
        names |= {"test_faults_" + prefix + c for c in cases.split()}
    fz = os.path.join(t, "fuzz", "CMakeLists.txt")
    if os.path.exists(fz):
        m = re.search(r"set\(BC_FUZZ_TARGETS\s+([^)]*)\)", open(fz, encoding="utf-8").read())
        names |= set(m.group(1).split()) if m else set()
    return names


def s_check_map(root, findings):
    """docs/testing.md names every test of the tree, and only those"""
    path = os.path.join(root, "docs", "testing.md")
    if not os.path.exists(path):
        findings.append("docs/testing.md: missing (the map of the tests)")
        return
    tests = s_tests(root)
    text = open(path, encoding="utf-8").read()
    covered = set()
    for n, line in enumerate(text.split("\n"), 1):
        for tok in re.findall(r"(?<![\w/.])((?:test|fuzz)_[a-z0-9_]*\*?)(?![\w.])", line):
            if tok.endswith("*"):
                hit = {t for t in tests if t.startswith(tok[:-1])}
            else:
                hit = {tok} & tests
            if not hit:
                findings.append("docs/testing.md:%d: %s is no test of the tree" % (n, tok))
            covered |= hit
    for t in sorted(tests - covered):
        findings.append("docs/testing.md: the test %s is not on the map" % t)


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
    c = Checker(root)
    docs = s_docs(root)
    if not docs:
        print("check_docs: no README.md or docs/ under %s" % root)
        return 1
    for d in docs:
        c.check(d)
    s_check_map(root, c.findings)
    for f in c.findings:
        print(f)
    print("check_docs: %d files, %d findings" % (len(docs), len(c.findings)))
    return 1 if c.findings else 0


if __name__ == "__main__":
    sys.exit(main())
