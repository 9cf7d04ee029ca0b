#!/usr/bin/env python3
"""pngtool.py - read 8-bit RGB/RGBA PNGs with zlib only (no PIL), for tests.

  pngtool.py stats FILE             width, height, pixel stddev, share of non-background pixels
  pngtool.py crop FILE Y0 Y1 OUT    rows [Y0, Y1) as a new PNG (to look at part of a long page)
"""
import struct
import sys
import zlib


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat = 8, b""
    while pos < len(data):
        n = struct.unpack(">I", data[pos:pos + 4])[0]
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w, h, depth, color = struct.unpack(">IIBB", body[:10])
            interlace = body[12]
        elif kind == b"IDAT":
            idat += body
    if depth != 8 or color not in (2, 6) or interlace:
        raise ValueError("only 8-bit non-interlaced RGB/RGBA")
    bpp = 3 if color == 2 else 4
    raw, stride = zlib.decompress(idat), w * bpp
    rows, prev, off = [], bytearray(stride), 0
    for _ in range(h):
        f, line = raw[off], bytearray(raw[off + 1:off + 1 + stride])
        off += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def write_png(path, w, bpp, rows):
    raw = b"".join(b"\x00" + r for r in rows)

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    ihdr = struct.pack(">IIBBBBB", w, len(rows), 8, 2 if bpp == 3 else 6, 0, 0, 0)
    open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) +
                           chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def stats(path):
    w, h, bpp, rows = read_png(path)
    n = s = s2 = 0
    counts = {}
    for r in rows[::4]:
        for x in range(0, w * bpp, bpp * 4):
            px = r[x:x + 3]
            lum = (px[0] * 299 + px[1] * 587 + px[2] * 114) // 1000
            n, s, s2 = n + 1, s + lum, s2 + lum * lum
            counts[px] = counts.get(px, 0) + 1
    mean = s / n
    background = max(counts.values())
    print("width %d height %d stddev %.2f non_background %.4f colours %d" %
          (w, h, (s2 / n - mean * mean) ** 0.5, 1 - background / n, len(counts)))


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "stats":
        stats(sys.argv[2])
    elif len(sys.argv) == 6 and sys.argv[1] == "crop":
        w, h, bpp, rows = read_png(sys.argv[2])
        write_png(sys.argv[5], w, bpp, rows[int(sys.argv[3]):int(sys.argv[4])])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
