"""``math.hypot`` as a kernel helper, bit for bit as the running CPython computes it.

The text is written into a kernel's module (son/exec/emit.py's ``HELPERS``) when the
kernel calls ``math.hypot``.  O(1) per call at run time.
"""

from __future__ import annotations

import sys

__all__ = ["HYPOT"]

#: math.hypot as the running CPython computes it (Modules/mathmodule.c's vector_norm), not
#: libm's: both scaled by a power of two below 1, squared and summed without loss, one
#: sqrt, then a differential correction.  3.10 and 3.11 split each square in three sums
#: (hi*hi, 2*hi*lo, lo*lo) and divide by a subnormal largest value instead of scaling;
#: 3.12 and later sum an exact product (Dekker's split here, fma there) and its low part,
#: and first scale a subnormal largest value by 1/DBL_MIN.  Bit for bit.
_HYPOT_PROLOGUE = """
def _hypot(x, y):
    x = abs(x)
    y = abs(y)
    if x == math.inf or y == math.inf:
        return math.inf  # before NaN: hypot(inf, nan) is inf
    if x != x or y != y:
        return math.nan
    big = x if x > y else y
    if big == 0.0:
        return big
    tiny = 1.0
    if math.frexp(big)[1] < -1023:  # 2**-e would overflow
        if OLD_SUBNORMALS:  # 3.10, 3.11: divide by the largest, one compensated sum
            csum, frac = 1.0, 0.0
            for i in range(2):
                v = (x if i == 0 else y) / big
                v *= v
                s = csum + v
                frac += (csum - s) + v
                csum = s
            return big * math.sqrt(csum - 1.0 + frac)
        tiny = 2.2250738585072014e-308  # 3.12 and later: scale by 1/DBL_MIN first
        x /= tiny
        y /= tiny
        big /= tiny
    scale = math.ldexp(1.0, -math.frexp(big)[1])
"""
_HYPOT_311 = _HYPOT_PROLOGUE.replace("OLD_SUBNORMALS", "True") + """
    csum, frac1, frac2, frac3 = 1.0, 0.0, 0.0, 0.0
    for i in range(2):
        v = (x if i == 0 else y) * scale
        t = v * 134217729.0  # Veltkamp's split: 2**27 + 1
        hi = t - (t - v)
        lo = v - hi
        v = hi * hi
        old = csum
        csum += v
        frac1 += (old - csum) + v
        v = 2.0 * hi * lo
        old = csum
        csum += v
        frac2 += (old - csum) + v
        frac3 += lo * lo
    h = math.sqrt(csum - 1.0 + (frac1 + frac2 + frac3))
    t = h * 134217729.0
    hi = t - (t - h)
    lo = h - hi
    v = -hi * hi
    old = csum
    csum += v
    frac1 += (old - csum) + v
    v = -2.0 * hi * lo
    old = csum
    csum += v
    frac2 += (old - csum) + v
    v = -lo * lo
    old = csum
    csum += v
    frac3 += (old - csum) + v
    v = csum - 1.0 + (frac1 + frac2 + frac3)
    return tiny * ((h + v / (2.0 * h)) / scale)
"""
_HYPOT_312 = _HYPOT_PROLOGUE.replace("OLD_SUBNORMALS", "False") + """
    csum, frac1, frac2 = 1.0, 0.0, 0.0
    h = 0.0
    for i in range(3):  # x*x, y*y, then -h*h for the correction
        if i == 0:
            a = x * scale
            b = a
        elif i == 1:
            a = y * scale
            b = a
        else:
            h = math.sqrt(csum - 1.0 + (frac1 + frac2))
            a = -h
            b = h
        t = a * 134217729.0  # Veltkamp's split: 2**27 + 1
        ah = t - (t - a)
        al = a - ah
        t = b * 134217729.0
        bh = t - (t - b)
        bl = b - bh
        p = ah * bh
        q = ah * bl + al * bh
        z = p + q
        frac1 += p - z + q + al * bl
        s = csum + z
        frac2 += (csum - s) + z
        csum = s
    h += (csum - 1.0 + (frac1 + frac2)) / (2.0 * h)
    return tiny * (h / scale)
"""
HYPOT = _HYPOT_311 if sys.version_info < (3, 12) else _HYPOT_312
