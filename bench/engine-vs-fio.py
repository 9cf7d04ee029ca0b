#!/usr/bin/env python3
"""engine-vs-fio.py - the figures and the statistics of bench/engine-vs-fio.sh and
bench/engine-vs-fio-vm.sh, in one place, so the loop-device and the VM-lab comparisons read
the tools' output, decide a verdict and print a shape's line by the same rule.

  engine-vs-fio.py fio FIO_JSON          -> "iops cpu_ns_per_io p50_us" of one fio run
  engine-vs-fio.py bc RUN_JSON           -> the same of one bench-coord run (run.json)
  engine-vs-fio.py verdict RESULTS BAND  -> "n ratio lo hi verdict" of a shape so far
  engine-vs-fio.py line RESULTS NAME LOAD BAND
                                         -> the shape's line (format in engine-vs-fio.sh)
  engine-vs-fio.py ios fio|bc FILE       -> the I/Os one run counted (fio JSON, run.json)
  engine-vs-fio.py counters COUNTERS NAME
                                         -> the shape's device-counter line (engine-vs-fio-vm.sh)

RESULTS holds one line per paired round: the fio triple, then the bench-coord triple.
"""
import json
import math
import sys

# two-sided 95% Student t quantiles, df 1..30 (beyond: 1.96)
T95 = [12.71, 4.30, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26, 2.23, 2.20, 2.18, 2.16, 2.14,
       2.13, 2.12, 2.11, 2.10, 2.09, 2.09, 2.08, 2.07, 2.07, 2.06, 2.06, 2.06, 2.05, 2.05,
       2.05, 2.04]


def fio_job(path):
    """fio's first job (group_reporting: all of them); anything fio printed before its JSON
    (a warning) is skipped"""
    text = open(path).read()
    return json.loads(text[text.index("{"):])["jobs"][0]


def fio_figures(path):
    """IOPS: read + write "iops" (group_reporting over numjobs); CPU per I/O: the job's
    usr_cpu + sys_cpu (percent of job_runtime) over its I/Os; p50: the "lat" percentile of
    reads where the shape reads (--lat_percentiles=1 --percentile_list=50)."""
    j = fio_job(path)
    r, w = j["read"], j["write"]
    ios = (r["total_ios"] + w["total_ios"]) or 1
    rt_ns = j["job_runtime"] * 1e6
    d = r if r["total_ios"] else w
    p50 = d["lat_ns"].get("percentile", {}).get("50.000000", 0) / 1e3
    cpu = (j["usr_cpu"] + j["sys_cpu"]) / 100 * rt_ns / ios
    return r["iops"] + w["iops"], cpu, p50


def bc_figures(path):
    """IOPS: run.json's total over the measured seconds; CPU per I/O: each agent's own
    getrusage from START to STEP_DONE (job threads, control thread, io_uring workers) over
    every I/O of the step; p50: the merged histogram, of reads where the shape reads."""
    s = json.load(open(path))["steps"][0]
    t = s["total"]
    ios = cpu = 0
    for a in s["agent_totals"].values():
        for v in a["volumes"]:
            ios += sum(v[o]["ios"] for o in ("read", "write", "trim"))
        cpu += a["cpu"]["process_user_ns"] + a["cpu"]["process_sys_ns"]
    lat = t["read"]["lat_us"] if t.get("read", {}).get("ios") else t["lat_us"]
    return t["iops"], cpu / (ios or 1), lat.get("p50") or 0


def fio_ios(path):
    j = fio_job(path)
    return sum(j.get(o, {}).get("total_ios", 0) for o in ("read", "write", "trim"))


def bc_ios(path):
    s = json.load(open(path))["steps"][0]
    return sum(v[o]["ios"] for a in s["agent_totals"].values() for v in a["volumes"]
               for o in ("read", "write", "trim"))


def counters(rows, name):
    """COUNTERS: one line per round, per tool (fio, then bench-coord) the I/Os the device
    completed, the device's interrupts and the I/Os the tool counted, over its whole run.
    Device I/Os per tool I/O near 1 says the tool's count is the device's; above 1 the device
    split requests or served other I/O. Interrupts per I/O: how the completions were
    delivered (one each, or coalesced)."""
    t = [sum(r[k] for r in rows) for k in range(6)]
    return ("  %-20s device I/Os per tool I/O fio %.3f bc %.3f | interrupts per I/O fio %.3f"
            " bc %.3f" % (name, t[0] / max(t[2], 1), t[3] / max(t[5], 1), t[1] / max(t[2], 1),
                          t[4] / max(t[5], 1)))


def rounds(path):
    return [[float(x) for x in l.split()] for l in open(path) if l.strip()]


def verdict(rows, band):
    """A shape's ratio: the geometric mean of its rounds' bench-coord/fio IOPS ratios with a
    95% Student-t interval on the log ratios; "above" / "below" when the interval lies above /
    below 1, "indistinguishable" when inside 1 +- band, else "undecided"."""
    lr = [math.log(max(r[3], 1e-9) / max(r[0], 1e-9)) for r in rows]
    n = len(lr)
    m = sum(lr) / n
    if n > 1:
        sd = math.sqrt(sum((x - m) ** 2 for x in lr) / (n - 1))
        h = (T95[n - 2] if n - 2 < len(T95) else 1.96) * sd / math.sqrt(n)
    else:
        h = float("inf")
    lo, hi = math.exp(m - h), math.exp(m + h)
    v = "undecided"
    if lo > 1:
        v = "above"
    elif hi < 1:
        v = "below"
    elif lo >= 1 - band and hi <= 1 + band:
        v = "indistinguishable"
    return n, math.exp(m), lo, hi, v


def line(rows, name, load, band):
    n, ratio, lo, hi, v = verdict(rows, band)

    def g(k):  # geometric mean of one column over the rounds
        return math.exp(sum(math.log(max(r[k], 1e-9)) for r in rows) / len(rows))

    return ("%-22s ratio %.3f [%.3f, %.3f] %-17s n=%-2d | IOPS fio %.0f bc %.0f | CPU/io %.2f of"
            " fio's | p50 us fio %.1f bc %.1f | load %s" % (name, ratio, lo, hi, v, n, g(0),
                                                         g(3), g(4) / g(1), g(2), g(5), load))


def main(argv):
    cmd = argv[1] if len(argv) > 1 else ""
    if cmd in ("fio", "bc") and len(argv) == 3:
        f = fio_figures if cmd == "fio" else bc_figures
        print("%.0f %.1f %.2f" % f(argv[2]))
    elif cmd == "ios" and len(argv) == 4 and argv[2] in ("fio", "bc"):
        print((fio_ios if argv[2] == "fio" else bc_ios)(argv[3]))
    elif cmd == "counters" and len(argv) == 4:
        print(counters(rounds(argv[2]), argv[3]))
    elif cmd == "verdict" and len(argv) == 4:
        n, ratio, lo, hi, v = verdict(rounds(argv[2]), float(argv[3]))
        print(n, "%.3f %.3f %.3f" % (ratio, lo, hi), v)
    elif cmd == "line" and len(argv) == 6:
        print(line(rounds(argv[2]), argv[3], argv[4], float(argv[5])))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
