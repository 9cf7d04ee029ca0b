#!/usr/bin/env python3
"""engine-timeline.py PERF_SCRIPT_TXT DEV LABEL: one tool's per-I/O timeline from tracepoints
(bench/engine-vs-fio.sh -T runs it; docs/engine.md, "Where an I/O's time goes").

Reads `perf script -F comm,tid,cpu,time,event,trace` of io_uring:io_uring_submit_req,
io_uring:io_uring_complete, block:block_rq_issue, block:block_rq_complete, sched:sched_wakeup
and sched:sched_switch, recorded system-wide while one tool drove DEV (major:minor or major,minor). The I/O
threads are the ones that submit to io_uring and issue requests to DEV. Each I/O is followed through its phases:
  submit    io_uring_submit_req -> block_rq_issue      (the submission path, same thread)
  device    block_rq_issue -> block_rq_complete         (the loop worker and the copy: the device)
  reap      block_rq_complete -> io_uring_complete      (wake-up, run-queue wait, task work)
  resubmit  io_uring_complete -> the thread's next io_uring_submit_req (user space between)
the device's queue is followed in time (how long it held no request; its mean depth, which
the tool's queue depth bounds: a tool that lets slots idle shows a shallower device queue), and
the I/O threads' time is split into on CPU, runnable (woken, waiting for a CPU) and asleep.
Prints `LABEL_name: value` lines: I/Os seen, mean and median microseconds per phase, the
device's empty share and mean depth, wake-ups and context switches per I/O, the threads'
on-CPU/runnable/asleep microseconds per I/O. With several submissions in one io_uring_enter
the kernel plugs them (io_uring plugs a batch of 3 or more) and issues them together at the
end: their "submit" phase includes waiting for the batch. Where the block layer merged or split
requests (requests_per_io not 1), submit and reap are left out: I/Os and requests do not pair.
"""
import collections, re, statistics, sys

path, dev, label = sys.argv[1], sys.argv[2], sys.argv[3]
dev = dev.replace(":", ",")  # /sys/block/X/dev says 7:2, the block tracepoints 7,2
LINE = re.compile(r"^\s*(.+?)\s+(\d+)\s+\[(\d+)\]\s+([\d.]+):\s+([\w:]+):\s*(.*)$")
ev = []
for line in open(path, errors="replace"):
    m = LINE.match(line)
    if m:
        comm, tid, cpu, t, name, rest = m.groups()
        ev.append((float(t) * 1e6, int(tid), name, rest, int(cpu)))
ev.sort(key=lambda e: e[0])

rq_re = re.compile(r"^(\d+),(\d+) \S+ (?:\d+ )?\(\S*\) (\d+) \+ (\d+)")
# the tool's I/O threads: they submit to io_uring and issue requests to DEV from their own
# context; other processes' rings (a neighbour's test on the null target) are not the tool's
submitters = {tid for _, tid, name, _, _ in ev if name == "io_uring:io_uring_submit_req"}
issuers, workers = set(), set()
for _, tid, name, rest, _ in ev:
    if name in ("block:block_rq_issue", "block:block_rq_complete"):
        m = rq_re.match(rest)
        if m and "%s,%s" % m.group(1, 2) == dev:
            (issuers if name == "block:block_rq_issue" else workers).add(tid)
io_tids = submitters & issuers
# the device's own threads: those that complete its requests (a loop device's worker; none for
# a device that completes in interrupts, where the completing thread is whoever ran)
workers -= io_tids
if not io_tids:
    sys.exit("engine-timeline: no thread both submits to io_uring and issues to %s in %s" % (dev, path))
pending_sub = collections.defaultdict(collections.deque)  # tid -> submit times not yet issued
issued = {}  # sector -> (issue time, submit time)
done_rq = {}  # sector -> (submit, issue, complete) waiting for its CQE
done_fifo = collections.deque()  # completed requests in order, to pair with CQEs
ph = collections.defaultdict(list)
last_cqe = {}  # tid -> time of its last CQE not yet followed by a submission
wakes = switches = 0
state = {}  # tid -> ("run"|"runnable"|"sleep", since, cpu)
acc = collections.Counter()  # the I/O threads' on_cpu, runnable, sleep
wacc = collections.Counter()  # the device workers' the same, and on_cpu<N> per CPU
def sched_in(tid, t, cpu):
    a = acc if tid in io_tids else wacc
    st = state.get(tid)
    if st and st[0] == "runnable":
        a["runnable"] += t - st[1]
    state[tid] = ("run", t, cpu)
def sched_out(tid, t, runnable):
    a = acc if tid in io_tids else wacc
    st = state.get(tid)
    if st and st[0] == "run":
        a["on_cpu"] += t - st[1]
        if tid in workers:
            a["on_cpu%d" % st[2]] += t - st[1]
    # preempted (R) waits for a CPU; anything else sleeps until woken
    state[tid] = ("runnable" if runnable else "sleep", t, None)
ios = nsub = nrq = 0
depth, depth_t, t_first, busy = 0, None, None, collections.Counter()
def dev_depth(t, d):
    # time-weighted requests in the device: how long it held 0, 1, 2... requests
    global depth, depth_t, t_first
    if depth_t is not None:
        busy[min(depth, 64)] += t - depth_t
    else:
        t_first = t
    depth, depth_t = depth + d, t
for t, tid, name, rest, cpu in ev:
    if name == "io_uring:io_uring_submit_req" and tid in io_tids:
        pending_sub[tid].append(t)
        nsub += 1
        if tid in last_cqe:
            ph["resubmit"].append(t - last_cqe.pop(tid))
    elif name == "block:block_rq_issue":
        m = rq_re.match(rest)
        if not m or "%s,%s" % m.group(1, 2) != dev:
            continue
        nrq += 1
        sub = pending_sub[tid].popleft() if tid in io_tids and pending_sub[tid] else None
        issued[m.group(3)] = (t, sub)
        dev_depth(t, 1)
    elif name == "block:block_rq_complete":
        m = rq_re.match(rest)
        if not m or "%s,%s" % m.group(1, 2) != dev:
            continue
        got = issued.pop(m.group(3), None)
        if got is None:
            continue
        ti, sub = got
        dev_depth(t, -1)
        ph["device"].append(t - ti)
        if sub is not None:
            ph["submit"].append(ti - sub)
        done_fifo.append(t)
    elif name == "io_uring:io_uring_complete" and tid in io_tids:
        ios += 1
        if done_fifo:
            ph["reap"].append(t - done_fifo.popleft())
        last_cqe[tid] = t
    elif name == "sched:sched_wakeup":
        m = re.search(r"pid=(\d+)", rest)
        w = int(m.group(1)) if m else -1
        if w in io_tids or w in workers:
            if w in io_tids:
                wakes += 1
            st = state.get(w)
            if st and st[0] == "sleep":
                (acc if w in io_tids else wacc)["sleep"] += t - st[1]
            state[w] = ("runnable", t, None)
    elif name == "sched:sched_switch":
        prev = re.search(r"prev_pid=(\d+) prev_prio=\d+ prev_state=(\S+)", rest)
        nxt = re.search(r"next_pid=(\d+)", rest)
        if prev and (int(prev.group(1)) in io_tids or int(prev.group(1)) in workers):
            if int(prev.group(1)) in io_tids:
                switches += 1
            sched_out(int(prev.group(1)), t, prev.group(2).startswith("R"))
        if nxt and (int(nxt.group(1)) in io_tids or int(nxt.group(1)) in workers):
            sched_in(int(nxt.group(1)), t, cpu)

print("%s_ios: %d" % (label, ios))
if len(ev) > 1 and ev[-1][0] > ev[0][0]:
    # the I/Os completed per second of the recording: the two tools' rates under the same load
    print("%s_window_iops: %.0f" % (label, ios / ((ev[-1][0] - ev[0][0]) / 1e6)))
if nsub:
    print("%s_requests_per_io: %.2f" % (label, nrq / nsub))
# merged or split requests (sequential I/O) break the pairing of submissions with requests
paired = nsub and abs(nrq / nsub - 1) <= 0.02
for k in ("submit", "device", "reap", "resubmit"):
    if k in ("submit", "reap") and not paired:
        continue
    v = ph[k]
    if v:
        print("%s_%s_mean_us: %.2f" % (label, k, statistics.fmean(v)))
        print("%s_%s_p50_us: %.2f" % (label, k, statistics.median(v)))
span = sum(busy.values())
if span:
    print("%s_device_empty_pct: %.1f" % (label, 100.0 * busy[0] / span))
    print("%s_device_mean_depth: %.2f" % (label, sum(k * v for k, v in busy.items()) / span))
if ios:
    print("%s_wakeups_per_io: %.2f" % (label, wakes / ios))
    print("%s_switches_per_io: %.2f" % (label, switches / ios))
    for k in ("on_cpu", "runnable", "sleep"):
        print("%s_%s_us_per_io: %.2f" % (label, k, acc[k] / ios))
    # the device's worker threads (a loop device's kworker): their time per I/O, and on
    # which CPUs it ran (on the tool's own CPU it competes with the I/O thread)
    if workers:
        for k in ("on_cpu", "runnable", "sleep"):
            print("%s_worker_%s_us_per_io: %.2f" % (label, k, wacc[k] / ios))
        for c in sorted(int(k[6:]) for k in wacc if k.startswith("on_cpu") and k != "on_cpu"):
            print("%s_worker_on_cpu%d_pct: %.1f" % (label, c, 100.0 * wacc["on_cpu%d" % c] / max(wacc["on_cpu"], 1e-9)))
