"""reportlib.py - what the report tests share to read summary.md and report.html back.

The reports print latency with the unit its magnitude calls for and three significant
digits ("2.20 µs", "90.1 µs", "12.2 ms"), counts grouped ("578,836") and rates with SI
prefixes ("2.37 GB/s"); these read such a cell back and compare it with run.json's figure.
"""
import math
import re

_LAT = {"ns": 1e-3, "\u00b5s": 1.0, "us": 1.0, "ms": 1e3, "s": 1e6}
_SI = {"": 1, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}


def lat_us(text):
    """'90.1 µs' -> 90.1 (microseconds); None for '-'"""
    text = text.strip()
    if text == "-":
        return None
    m = re.fullmatch(r"([-0-9.]+) (ns|\u00b5s|us|ms|s)", text)
    assert m, "not a latency: %r" % text
    return float(m.group(1)) * _LAT[m.group(2)]


def count(text):
    """'578,836' -> 578836"""
    return float(text.strip().replace(",", ""))


def rate_mbps(text):
    """'2.37 GB/s' -> 2370.0 (MB/s)"""
    m = re.fullmatch(r"([-0-9.]+) ([kMGT]?)B/s", text.strip())
    assert m, "not a rate: %r" % text
    return float(m.group(1)) * _SI[m.group(2)] / 1e6


def sig3(shown, value):
    """shown (as printed with three significant digits) is value rounded so"""
    if value == 0:
        return shown == 0
    digits = 3 - int(math.floor(math.log10(abs(value)))) - 1
    # a value printed in a larger unit keeps three significant digits of its own
    return abs(shown - value) <= 0.5 * 10 ** -digits * 1.0001 + abs(value) * 1e-9


def lat_agrees(text, us):
    """the latency cell text shows us microseconds, to three significant digits"""
    shown = lat_us(text)
    return shown is not None and sig3(shown, us)
