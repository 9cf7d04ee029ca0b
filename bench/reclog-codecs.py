#!/usr/bin/env python3
"""reclog-codecs.py RUN_DIR [MAX_RECORDS]: what other codecs would make of records.bin.

Every STATS body of the run's records.bin (docs/results.md) compressed on its own by: zlib
Huffman coding alone (what records.bin does), zlib levels 1/6/9 and Z_FILTERED, zstd levels
1/3/9/19, zstd with a 64 KB dictionary trained (`zstd --train`) on the first fifth of the
bodies, zlib and zstd given the same agent's previous body as a dictionary (the second before:
delta by matching), the body's varint streams split apart (headers, counters, bucket deltas,
counts, percentile buckets) and each Huffman- or zstd-coded, and the counts as their change
from the previous second's same bucket. The dictionary's training bodies are left out of
every figure. Prints `codec: percent of the raw bodies` lines, then `raw_bytes_per_record`.
zstd through libzstd.so.1 (ctypes) and the zstd command: a measurement, not a dependency.
"""
import collections, ctypes, os, shutil, struct, subprocess, sys, tempfile, zlib
Z = ctypes.CDLL("libzstd.so.1")
Z.ZSTD_compressBound.restype = ctypes.c_size_t
Z.ZSTD_compress.restype = ctypes.c_size_t
Z.ZSTD_createCCtx.restype = ctypes.c_void_p
Z.ZSTD_compress_usingDict.restype = ctypes.c_size_t
Z.ZSTD_compress_usingDict.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int]
Z.ZSTD_compress.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int]
cctx = Z.ZSTD_createCCtx()
def zstd(b, lvl, d=b""):
    cap = len(b) + 1024
    out = ctypes.create_string_buffer(cap)
    n = Z.ZSTD_compress_usingDict(cctx, out, cap, b, len(b), d, len(d), lvl)
    assert n < cap, n
    return n
def varint(b, i):
    v = s = 0
    while True:
        c = b[i]; i += 1; v |= (c & 0x7f) << s; s += 7
        if not c & 0x80: return v, i
def put(v):
    o = bytearray()
    while True:
        c = v & 0x7f; v >>= 7
        if v: o.append(c | 0x80)
        else: o.append(c); return bytes(o)
def recs(path, limit):
    d = open(path, "rb").read()
    i = 16; out = []
    while i + 8 <= len(d) and len(out) < limit:
        n, crc = struct.unpack_from("<II", d, i); p = d[i+8:i+8+n]; i += 8 + n
        codec = p[0]; j = 1
        t, j = varint(p, j); nl, j = varint(p, j); name = p[j:j+nl].decode(); j += nl
        bl, j = varint(p, j); body = p[j:]
        if codec == 1: body = zlib.decompress(body)
        assert len(body) == bl
        out.append((name, body))
    return out
def parse(b):
    """streams: hdr, counters, didx, cnt; plus structure for delta: list of (vol, op, {idx:count})"""
    i = 0; st = collections.defaultdict(bytearray); hist = []
    ver = b[0]; i = 1
    vals = []
    for _ in range(4):
        v, i = varint(b, i); vals.append(v)
    nvol = vals[3]
    for _ in range(nvol):
        vol, i = varint(b, i); om, i = varint(b, i); st["hdr"] += put(vol) + put(om)
        for op in range(3):
            if not om & (1 << op): continue
            for _ in range(7):
                v, i = varint(b, i); st["ctr"] += put(v)
            v, i = varint(b, i); st["ctr"] += put(v)
            np_, i = varint(b, i); st["np"] += put(np_)
            idx = 0; h = {}
            for _ in range(np_):
                di, i = varint(b, i); c, i = varint(b, i); idx += di; h[idx] = c
                st["didx"] += put(di); st["cnt"] += put(c)
            hist.append(((vol, op), h))
        if om & 0x80:
            v, i = varint(b, i); st["ctr"] += put(v)
        if om & 0x40:
            for _ in range(5):
                v, i = varint(b, i); st["pct"] += put(v)
    assert i == len(b), (i, len(b))
    return st, hist
def huff(b):
    c = zlib.compressobj(9, zlib.DEFLATED, 15, 9, zlib.Z_HUFFMAN_ONLY); return len(c.compress(b) + c.flush())
def zl(b, lvl, strat=zlib.Z_DEFAULT_STRATEGY, zdict=None):
    c = zlib.compressobj(lvl, zlib.DEFLATED, 15, 9, strat, zdict) if zdict else zlib.compressobj(lvl, zlib.DEFLATED, 15, 9, strat)
    return len(c.compress(b) + c.flush())
path = sys.argv[1] + "/records.bin"
limit = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
R = recs(path, limit)
raw = sum(len(b) for _, b in R)
res = collections.OrderedDict()
def add(k, n): res[k] = res.get(k, 0) + n
# train zstd dict on first 20%
ntr = max(1, len(R) // 5)
tmpd = tempfile.mkdtemp()
for j, (_, b) in enumerate(R[:ntr]):
    open(os.path.join(tmpd, "s%d" % j), "wb").write(b)
subprocess.run(["zstd", "-q", "-f", "--train", "-r", tmpd, "-o", tmpd + "/dict", "--maxdict=65536"], check=True, stderr=subprocess.DEVNULL)
zd = open(tmpd + "/dict", "rb").read()
prev = {}; prevh = {}
T = R[ntr:]
rawT = sum(len(b) for _, b in T)
for name, b in T:
    add("zlib huffman-only (today)", huff(b))
    add("zlib 1", zl(b, 1)); add("zlib 6", zl(b, 6)); add("zlib 9", zl(b, 9))
    add("zlib 6 filtered", zl(b, 6, zlib.Z_FILTERED))
    add("zstd 1", zstd(b, 1)); add("zstd 3", zstd(b, 3)); add("zstd 9", zstd(b, 9)); add("zstd 19", zstd(b, 19))
    add("zstd 3 + 64K dict", zstd(b, 3, zd)); add("zstd 19 + 64K dict", zstd(b, 19, zd))
    p = prev.get(name)
    if p is not None:
        add("zlib 6, previous record as dictionary", zl(b, 6, zdict=p))
        add("zstd 3, previous record as prefix", zstd(b, 3, p))
    else:
        add("zlib 6, previous record as dictionary", zl(b, 6)); add("zstd 3, previous record as prefix", zstd(b, 3))
    prev[name] = b
    st, hist = parse(b)
    # stream split, each huffman coded
    add("streams split, huffman each", sum(huff(bytes(v)) for v in st.values()))
    add("streams split, zstd 3 each", sum(zstd(bytes(v), 3) for v in st.values()))
    # count delta vs previous second, same volume/op/bucket (zigzag), streams split
    ph = prevh.get(name, {})
    dc = bytearray()
    for key, h in hist:
        q = ph.get(key, {})
        for idx, c in h.items():
            d = c - q.get(idx, 0); dc += put((d << 1) ^ (d >> 63) if d >= 0 else ((-d) << 1) - 1)
    prevh[name] = dict(hist)
    st2 = dict(st); st2["cnt"] = dc
    add("streams split, counts as delta from previous second, huffman", sum(huff(bytes(v)) for v in st2.values()))
for k, v in res.items():
    print("%s: %.1f" % (k, 100.0 * v / rawT))
print("records_tested: %d" % len(T))
print("dictionary_training_records: %d" % ntr)
print("raw_bytes_per_record: %.0f" % (rawT / len(T)))
shutil.rmtree(tmpd)
