#!/usr/bin/env python3
"""check_run.py RUN_DIR [--same-as OTHER_RUN_DIR]: ground truth for a run directory.

Recomputes, straight from events.jsonl (and records.bin, whose STATS bodies
the binary form's "stats" lines name by offset; docs/results.md, decoded here
as docs/protocol.md describes them) and independently of the coordinator's
code, every step's totals, per-second IOPS and window figures, and compares
them with run.json and summary.md:
  - a step's window is the seconds from its ramp on that carried at least one
    record; IOPS and MB/s are the window's I/Os and bytes over those seconds
    (none: no figure, shown "-"); seconds without a record are listed in
    lost_seconds and are null in the series, never zero;
  - an agent lost under on_agent_loss "continue" is in no later step;
  - a step that lost an agent, or runs without one, is "degraded";
  - a size-based step cut short ends with its last second of I/O (none after it);
  - a step that never started ("not started": the run stopped or was interrupted
    before its PREPARE) has no figures and no checks.
With --same-as, the two run.json files (say live and rebuilt) must be equal
but for the rebuild's markers, and so must their summary.md.
Python 3 standard library only. Exit 0 when everything agrees, 1 otherwise.
"""
import base64
import json
import os
import re
import struct
import sys
import zlib

OPS = ("read", "write", "trim")
MARKERS = {"rebuilt_from", "events_skipped", "started_ns"}
errors = []


def fail(msg):
    errors.append(msg)


def close(a, b, tol=1e-3):
    """equal within the 3-decimal rounding run.json applies"""
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= max(tol, 1e-9 * abs(b))


class Step:
    def __init__(self, ev, started):
        self.idx = ev["step"]
        self.name = ev.get("name")
        wl = ev.get("workload", {})
        self.ramp = wl.get("ramp", 0)
        self.seconds = ev.get("seconds", 0) if started else 0
        self.started = started
        self.recs = {}  # (agent, second) -> [ios, bytes]
        self.all = {}  # agent -> [ios, bytes], every interval
        self.vols = {}  # (volume, second) -> [ios, bytes]
        self.lost = []  # agent names lost in this step
        self.done = set()
        self.status = None


def varint(b, i):
    """LEB128: (value, next index); IndexError when b ends inside it"""
    v, shift = 0, 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7F) << shift
        if not c & 0x80:
            return v, i
        shift += 7


PCTS = (50, 90, 99, 99.9, 99.99)  # a second's row (docs/protocol.md, STATS)


def pct_buckets(hist):
    """the buckets holding the PCTS-th percentiles of hist (bucket -> samples): the
    rank-th smallest sample, rank = ceil(p/100 * count), at least 1"""
    count = sum(hist.values())
    out, seen, todo = [], 0, list(PCTS)
    for b in sorted(hist):
        seen += hist[b]
        while todo:
            want = todo[0] / 100.0 * count
            rank = max(int(want) + (int(want) < want), 1)
            if seen < rank:
                break
            out.append(b)
            todo.pop(0)
    return out + [max(hist)] * len(todo) if hist else out


def decode_stats(body, vols):
    """a STATS body (docs/protocol.md) as the json form's "volumes": vols maps the
    body's volume indexes (the agent's) to the profile's"""
    if body[0] != 1:
        raise ValueError("STATS body version %d" % body[0])
    i, out = 1, []
    _, i = varint(body, i)  # step
    _, i = varint(body, i)  # second
    _, i = varint(body, i)  # flags
    nvol, i = varint(body, i)
    for _ in range(nvol):
        vi, i = varint(body, i)
        mask, i = varint(body, i)
        v = {"volume": vols[vi]}
        hist = {}  # bucket -> samples, every op's
        for o, op in enumerate(OPS):
            if not mask & (1 << o):
                continue
            f = []
            for _ in range(8):  # ios bytes errors short lat_sum lat_min lat_max errno
                x, i = varint(body, i)
                f.append(x)
            npairs, i = varint(body, i)
            at = 0
            for _ in range(npairs):
                d, i = varint(body, i)
                c, i = varint(body, i)
                at += d
                hist[at] = hist.get(at, 0) + c
            v[op] = {"ios": f[0], "bytes": f[1], "errors": f[2], "short": f[3]}
        if mask & 0x80:
            _, i = varint(body, i)
        if mask & 0x40:  # the agent's percentile buckets: must be its histograms'
            got, at = [], 0
            for _ in PCTS:
                d, i = varint(body, i)
                at += d
                got.append(at)
            want = pct_buckets(hist)
            if got != want:
                fail("volume %s: the record's percentile buckets %s, its histograms give %s"
                     % (vols[vi], got, want))
        out.append(v)
    if i != len(body):
        raise ValueError("%d bytes after the last volume" % (len(body) - i))
    return out


class RecLog:
    """records.bin: "BCRECS01", u32 version, u32 flags; frames [u32 len][u32 crc32][payload],
    payload: u8 codec (0 raw, 1 zlib), varint time_ns, varint+name, varint body length, body"""

    def __init__(self, path):
        self.f = open(path, "rb") if os.path.exists(path) else None
        if self.f and self.f.read(16)[:8] != b"BCRECS01":
            fail("%s: not a record log" % path)
            self.f = None

    def get(self, off):
        """(agent, body) of the frame at off; None when the file does not hold it whole"""
        if not self.f or off < 16:
            return None
        self.f.seek(off)
        h = self.f.read(8)
        if len(h) < 8:
            return None
        n, crc = struct.unpack("<II", h)
        p = self.f.read(n)
        if len(p) < n:
            return None
        if zlib.crc32(p) != crc:
            fail("records.bin: frame at %d: bad CRC" % off)
            return None
        codec, i = p[0], 1
        _, i = varint(p, i)
        nl, i = varint(p, i)
        agent = p[i:i + nl].decode()
        i += nl
        blen, i = varint(p, i)
        body = p[i:] if codec == 0 else zlib.decompress(p[i:])
        if codec not in (0, 1) or len(body) != blen:
            fail("records.bin: frame at %d: codec %d, %d of %d bytes" % (off, codec, len(body),
                                                                         blen))
            return None
        return agent, body


def agent_vols(prof):
    """agent name -> its volumes' profile indexes, in the profile's order (a body's order)"""
    out = {}
    for j, v in enumerate(prof["volumes"]):
        out.setdefault(v["agent"], []).append(j)
    return out


def load_events(path, prof):
    steps, cur, lost_before, policy_continue = [], None, set(), None
    rec = RecLog(os.path.join(os.path.dirname(path), "records.bin"))
    avols = agent_vols(prof)
    with open(path) as f:
        for n, line in enumerate(f, 1):
            try:
                ev = json.loads(line)
            except ValueError:
                continue  # the line a crash cut short
            t = ev.get("event")
            if t == "step_start":
                cur = Step(ev, True)
                cur.out = set(lost_before)
                steps.append(cur)
            elif t == "stats":
                if cur is None:
                    fail("%s:%d: stats without a step" % (path, n))
                    continue
                a, k = ev["agent"], ev["second"]
                if "rec" in ev:
                    got = rec.get(ev["rec"])
                    if got is None:
                        continue  # the frame a crash cut short, like a line cut short
                    if got[0] != a:
                        fail("%s:%d: record at %d is %s's, the line says %s"
                             % (path, n, ev["rec"], got[0], a))
                        continue
                    ev["volumes"] = decode_stats(got[1], avols[a])
                elif "body_b64" in ev:
                    ev["volumes"] = decode_stats(base64.b64decode(ev["body_b64"]), avols[a])
                ios = sum(v.get(op, {}).get("ios", 0) for v in ev["volumes"] for op in OPS)
                byt = sum(v.get(op, {}).get("bytes", 0) for v in ev["volumes"] for op in OPS)
                s = cur.all.setdefault(a, [0, 0])
                s[0] += ios
                s[1] += byt
                if 0 <= k < cur.seconds:
                    r = cur.recs.setdefault((a, k), [0, 0])
                    r[0] += ios
                    r[1] += byt
                    for v in ev["volumes"]:
                        x = cur.vols.setdefault((v["volume"], k), [0, 0])
                        x[0] += sum(v.get(op, {}).get("ios", 0) for op in OPS)
                        x[1] += sum(v.get(op, {}).get("bytes", 0) for op in OPS)
            elif t == "run_resume":
                # a new coordinator took the run up (run --resume): every agent is back,
                # and a step cut short stays as measured
                lost_before = set()
                cur = None
            elif t == "step_done" and cur is not None:
                cur.done.add(ev["agent"])
            elif t == "agent_lost" and cur is not None:
                cur.lost.append(ev["name"])
                lost_before.add(ev["name"])
            elif t == "error" and "step" in ev:
                if cur is None or cur.idx != ev["step"] or (
                        "name" in ev and cur.name != ev["name"]):
                    cur = Step(ev, False)  # failed before it started
                    cur.out = set(lost_before)
                    steps.append(cur)
                cur.status = ev.get("status", "failed")
    return steps


def secs_of(step, agents):
    """window seconds carrying a record from any of agents"""
    return sorted({k for (a, k) in step.recs if a in agents and k >= step.ramp})


def figures(step, agents):
    ks = secs_of(step, agents)
    ios = sum(v[0] for (a, k), v in step.recs.items() if a in agents and k >= step.ramp)
    byt = sum(v[1] for (a, k), v in step.recs.items() if a in agents and k >= step.ramp)
    n = len(ks)
    return ios, byt, n, (ios / n if n else None), (byt / n / 1e6 if n else None)


def ranges(ks):
    out = []
    for k in ks:
        if out and out[-1][1] == k - 1:
            out[-1][1] = k
        else:
            out.append([k, k])
    return out


def check_step(i, st, js, prof):
    where = "step %d (%s)" % (i, js.get("name"))
    agents = [a["name"] for a in prof["agents"] if a["name"] not in st.out]
    if st.name and js.get("name") != st.name:
        fail("%s: name %s, events say %s" % (where, js.get("name"), st.name))
    got = [a["name"] for a in js.get("agents", [])]
    # a step that never started measured nobody: whom it lists is not a figure
    if got != agents and js.get("status") != "not started":
        fail("%s: agents %s, expected %s (lost before: %s)" % (where, got, agents, sorted(st.out)))
    degraded = bool(st.lost or st.out)
    if st.status:
        if js["status"] != st.status:
            fail("%s: status %s, events say %s" % (where, js["status"], st.status))
    elif degraded and js["status"] != "degraded":
        fail("%s: status %s, expected degraded (lost %s, out %s)"
             % (where, js["status"], st.lost, sorted(st.out)))
    elif not degraded and js["status"] not in ("ok", "incomplete"):
        fail("%s: status %s for a step that lost nobody" % (where, js["status"]))
    if sorted(l["name"] for l in js.get("lost_agents", [])) != sorted(st.lost):
        fail("%s: lost_agents %s, events say %s" % (where, js.get("lost_agents"), st.lost))
    if not st.started:
        if js.get("checks"):
            fail("%s: checks on a step that never started" % where)
        if js["total"].get("iops") is not None:
            fail("%s: IOPS %s for a step that never started" % (where, js["total"]["iops"]))
        return
    # a size-based pass that ended early: the step ends with its last second of I/O, and
    # every second cut off must have carried none
    nsec = js.get("seconds", 0)
    if nsec < st.seconds:
        cut = [k for (a, k), v in st.recs.items() if k >= nsec and v[0]]
        if cut or not any(st.recs.get((a, nsec - 1), [0])[0] for a in agents):
            fail("%s: cut to %d of %d seconds, but I/O in seconds %s"
                 % (where, nsec, st.seconds, sorted(set(cut))[:5]))
        st.recs = {key: v for key, v in st.recs.items() if key[1] < nsec}
        st.vols = {key: v for key, v in st.vols.items() if key[1] < nsec}
        st.seconds = nsec
    ios, byt, n, iops, mbps = figures(st, set(agents))
    t = js["total"]
    if t["ios"] != ios or t["bytes"] != byt:
        fail("%s: total %s I/Os %s bytes, events sum to %d / %d"
             % (where, t["ios"], t["bytes"], ios, byt))
    if t.get("seconds") != n or js.get("measured_seconds") != n:
        fail("%s: window %s s (measured_seconds %s), %d seconds carried records"
             % (where, t.get("seconds"), js.get("measured_seconds"), n))
    if not close(t.get("iops"), iops) or not close(t.get("mbps"), mbps):
        fail("%s: IOPS %s MB/s %s, events give %s / %s" % (where, t.get("iops"), t.get("mbps"),
                                                           iops, mbps))
    alli = sum(v[0] for a, v in st.all.items() if a in agents)
    if t["all_intervals"]["ios"] != alli:
        fail("%s: all_intervals %s I/Os, events %d" % (where, t["all_intervals"]["ios"], alli))
    per_sec = []
    for k in range(nsec):
        have = any((a, k) in st.recs for a in agents)
        per_sec.append(sum(st.recs.get((a, k), [0])[0] for a in agents) if have else None)
    if "series" in t:
        series = t["series"]["iops"]
        for k in range(nsec):
            if series[k] != per_sec[k]:
                fail("%s: second %d IOPS %s, events %s" % (where, k, series[k], per_sec[k]))
    else:
        # a long step (over an hour) is read per minute: each minute's seconds with
        # records, their mean, lowest and highest IOPS, and the drift's hours
        m = t.get("minutes")
        if not m:
            fail("%s: the total has neither a per-second series nor minutes" % where)
        else:
            for j in range(0, (nsec + 59) // 60):
                got = [v for v in per_sec[60 * j:60 * j + 60] if v is not None]
                want = [len(got), sum(got) / len(got) if got else None,
                        min(got) if got else None, max(got) if got else None]
                have = [m["seconds"][j], m["iops"][j], m["iops_min"][j], m["iops_max"][j]]
                if have[0] != want[0] or have[2:] != want[2:] or not close(have[1], want[1]):
                    fail("%s: minute %d: seconds, IOPS, lowest, highest %s, events %s"
                         % (where, j, have, want))
            d = js.get("drift", {})
            first = d.get("from_second", 0)
            for h in d.get("hours", []):
                got = [v for v in per_sec[first + 3600 * h["hour"]:first + 3600 * (h["hour"] + 1)]
                       if v is not None]
                if h["seconds"] != len(got) or not close(h["iops"], sum(got) / len(got)):
                    fail("%s: drift hour %d: %s s at %s IOPS, events %d s at %s"
                         % (where, h["hour"], h["seconds"], h["iops"], len(got),
                            sum(got) / len(got) if got else None))
    silent = [k for k in range(nsec) if not any((a, k) in st.recs for a in agents)]
    lost_s = [[r["from"], r["to"]] for r in js.get("lost_seconds", [])]
    if lost_s != ranges(silent):
        fail("%s: lost_seconds %s, seconds without records %s" % (where, lost_s, ranges(silent)))
    for r in js.get("lost_seconds", []):
        if not r.get("why"):
            fail("%s: lost seconds %s without a reason" % (where, r))
    for a in js.get("agents", []):
        _, _, an, aiops, _ = figures(st, {a["name"]})
        if a.get("seconds") != an or not close(a.get("iops"), aiops):
            fail("%s: agent %s %s IOPS over %s s, events %s over %d s"
                 % (where, a["name"], a.get("iops"), a.get("seconds"), aiops, an))
    vols = prof["volumes"]
    vi = -1
    for v in js.get("volumes", []):
        # in profile order; names repeat (an agent's "null" volumes): the next one that fits
        vi = next((j for j, pv in enumerate(vols) if j > vi and
                   pv["agent"] == v["agent"] and v["name"].endswith(pv["path"])), None)
        if vi is None:
            break
        ks = sorted({k for (x, k) in st.vols if x == vi and k >= st.ramp})
        vios = sum(val[0] for (x, k), val in st.vols.items() if x == vi and k >= st.ramp)
        if v.get("seconds") != len(ks) or v["ios"] != vios:
            fail("%s: volume %s %s I/Os over %s s, events %d over %d s"
                 % (where, v["name"], v["ios"], v.get("seconds"), vios, len(ks)))
    for c in js.get("checks", []):
        if c.get("name", "").startswith("agent totals") and st.started:
            missing = [a for a in agents if a not in st.done and a not in st.lost]
            for a in missing:
                if a not in c.get("detail", ""):
                    fail("%s: agent-totals check does not name %s: %s" % (where, a, c["detail"]))


def md_total_rows(path):
    """each step section's total row of summary.md: (IOPS, MB/s) as text"""
    rows, name = [], None
    with open(path) as f:
        for line in f:
            m = re.match(r"^## Step (.*) \(([\w ]+)(, contended)?\)$", line.strip())
            if m:
                name = m.group(1)
            elif name and line.startswith("| **total** |"):
                cells = [c.strip() for c in line.strip().strip("|").split("|")]
                rows.append((name, cells[1], cells[2]))
                name = None
    return rows


def fmt(v, dec):
    return "-" if v is None else "%.*f" % (dec, v)


def shown(cell, v, dec):
    """a table's cell is run.json's figure v to dec decimals ("-" for none)"""
    if v is None:
        return cell == "-"
    try:
        return abs(float(cell.replace(",", "")) - v) <= 0.5 * 10 ** -dec + 1e-9
    except ValueError:
        return False


def check_md(run, path):
    rows = md_total_rows(path)
    steps = run["steps"]
    if len(rows) != len(steps):
        fail("summary.md: %d step sections, run.json %d steps" % (len(rows), len(steps)))
        return
    for (name, iops, mbps), js in zip(rows, steps):
        t = js["total"]
        # the tables group thousands ("1,439,491") and round half away from zero
        if not shown(iops, t.get("iops"), 0) or not shown(mbps, t.get("mbps"), 1):
            fail("summary.md step %s: IOPS %s MB/s %s, run.json %s / %s"
                 % (name, iops, mbps, t.get("iops"), t.get("mbps")))
        if "0.000" in iops and t.get("iops") is None:
            fail("summary.md step %s: 0.000 where nothing was measured" % name)


def strip(o):
    if isinstance(o, dict):
        return {k: strip(v) for k, v in o.items() if k not in MARKERS}
    if isinstance(o, list):
        return [strip(v) for v in o]
    return o


def first_diff(a, b, path=""):
    if type(a) is not type(b):
        return "%s: %r vs %r" % (path, str(a)[:60], str(b)[:60])
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return "%s/%s: only in %s" % (path, k, "second" if k not in a else "first")
            d = first_diff(a[k], b[k], path + "/" + k)
            if d:
                return d
    elif isinstance(a, list):
        if len(a) != len(b):
            return "%s: %d vs %d items" % (path, len(a), len(b))
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_diff(x, y, "%s[%d]" % (path, i))
            if d:
                return d
    elif a != b:
        return "%s: %r vs %r" % (path, a, b)
    return None


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    d = args[0]
    run = json.load(open(os.path.join(d, "run.json")))
    prof = json.load(open(os.path.join(d, "profile.json")))
    steps = load_events(os.path.join(d, "events.jsonl"), prof)
    if len(steps) != len(run["steps"]):
        fail("run.json has %d steps, events.jsonl %d" % (len(run["steps"]), len(steps)))
    for i, (st, js) in enumerate(zip(steps, run["steps"])):
        check_step(i, st, js, prof)
    md = os.path.join(d, "summary.md")
    if os.path.exists(md):
        check_md(run, md)
    elif run.get("status") != "not started":
        fail("summary.md missing (run status %s)" % run.get("status"))
    if len(args) == 3 and args[1] == "--same-as":
        other = json.load(open(os.path.join(args[2], "run.json")))
        diff = first_diff(strip(run), strip(other))
        if diff:
            fail("run.json differs from %s's: %s" % (args[2], diff))
        # a run that never started has no reports; its rebuild may write them
        pa, pb = os.path.join(d, "summary.md"), os.path.join(args[2], "summary.md")
        a = open(pa).read() if os.path.exists(pb) else ""
        b = open(pb).read() if os.path.exists(pb) else ""
        if a != b:
            la, lb = a.splitlines(), b.splitlines()
            k = next((i for i, (x, y) in enumerate(zip(la, lb)) if x != y), min(len(la), len(lb)))
            fail("summary.md differs from %s's at line %d: %r vs %r"
                 % (args[2], k + 1, la[k] if k < len(la) else "", lb[k] if k < len(lb) else ""))
    for s, js in zip(steps, run["steps"]):
        n = figures(s, {a["name"] for a in prof["agents"]} - s.out)
        print("check: step %-24s %-9s window %2d s  IOPS %s (run.json %s)"
              % (js.get("name"), js.get("status"), n[2], fmt(n[3], 1),
                 fmt(js["total"].get("iops"), 1)))
    for e in errors:
        print("MISMATCH: " + e)
    print("check: %s: %s" % (d, "agree" if not errors else "%d mismatch(es)" % len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
