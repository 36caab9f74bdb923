"""Integer range arithmetic: the transfer functions behind the int nodes' ``compute()``.

Each function takes its operands as inclusive ranges ``(lo, hi)`` of Python ints
(an int64 value, or a bool read as 0 or 1) and returns the range of the *exact*
mathematical results over every pair of operands in them, or None when it gives
no useful bound (``INT`` then) or no operand pair produces a value (a divisor
that is always 0: the node raises, any type is sound).  The result may leave
int64: ``types.int_range`` turns such a range into the full ``INT``, because
the int64 operation then wraps (``[0, max] + [1, 1]`` is ``INT``, not
``[1, max]``: son never assumes that an operation does not overflow).  The
functions follow the nodes' ``eval`` (Python's floor ``//`` and ``%``, shift
counts of 64 and more, ``**`` with a negative exponent raising), and their
soundness is tested against ``eval`` on random operands inside random ranges
(tests/test_ranges.py).  Every function is O(1) (a few corner evaluations).

Comparisons: ``compare`` decides ``a op b`` when the ranges are disjoint (or
touch at one end), else None.
"""

from __future__ import annotations

from typing import Callable

Range = tuple[int, int]
Result = Range | None


def _hull(parts: list[Range]) -> Result:
    if not parts:
        return None
    return min(p[0] for p in parts), max(p[1] for p in parts)


def _corners(f: Callable[[int, int], int], a: Range, b: Range) -> Range:
    cs = [f(x, y) for x in a for y in b]
    return min(cs), max(cs)


def _sign_parts(r: Range) -> list[tuple[Range, bool]]:
    """``r`` split into its negative and non-negative parts: ``(part, negative?)``."""
    lo, hi = r
    out = []
    if lo < 0:
        out.append(((lo, min(hi, -1)), True))
    if hi >= 0:
        out.append(((max(lo, 0), hi), False))
    return out


# ---------------------------------------------------------------- arithmetic
def add(a: Range, b: Range) -> Result:
    return a[0] + b[0], a[1] + b[1]


def sub(a: Range, b: Range) -> Result:
    return a[0] - b[1], a[1] - b[0]


def mul(a: Range, b: Range) -> Result:
    """Corners: a product is monotone in each operand on a rectangle."""
    return _corners(lambda x, y: x * y, a, b)


def neg(a: Range) -> Result:
    return -a[1], -a[0]


def floordiv(a: Range, b: Range) -> Result:
    """``a // b`` over the non-zero divisors of ``b``: on each sign part of the divisor
    the quotient is monotone in each operand, so its extremes are at corners (``min //
    -1`` is 2**63: the caller's range check makes that ``INT``, as the wrap demands)."""
    blo, bhi = b
    parts = []
    for lo, hi in ((blo, min(bhi, -1)), (max(blo, 1), bhi)):
        if lo <= hi:
            parts.append(_corners(lambda x, y: x // y, a, (lo, hi)))
    return _hull(parts)


def mod(a: Range, b: Range) -> Result:
    """Python's ``a % b``: the sign of the divisor, ``|r| < |b|``; ``a`` itself when it
    already lies between the divisor and 0."""
    alo, ahi = a
    blo, bhi = b
    parts = []
    if bhi >= 1:  # positive divisors p..q: 0 <= r <= q - 1
        p, q = max(blo, 1), bhi
        if alo >= 0 and ahi < p:
            parts.append((alo, ahi))
        elif alo >= 0:
            parts.append((0, min(ahi, q - 1)))
        else:
            parts.append((0, q - 1))
    if blo <= -1:  # negative divisors p..q: p + 1 <= r <= 0
        p, q = blo, min(bhi, -1)
        if ahi <= 0 and alo > q:
            parts.append((alo, ahi))
        elif ahi <= 0:
            parts.append((max(alo, p + 1), 0))
        else:
            parts.append((p + 1, 0))
    return _hull(parts)


def pow_(a: Range, b: Range) -> Result:
    """``a ** b`` for a non-negative base (monotone in both operands there, with ``0 ** 0
    == 1``); a negative exponent raises, so only ``b >= 0`` counts.  A base that may be
    negative gives no bound."""
    alo, ahi = a
    blo, bhi = max(b[0], 0), b[1]
    if blo > bhi or alo < 0:
        return None
    if ahi >= 2 and bhi >= 64:
        return None  # at least 2**64: wraps
    if ahi >= 1:
        hi = ahi**bhi
    else:  # the base is 0
        hi = 1 if blo == 0 else 0
    if alo >= 1:
        lo = alo**blo
    else:  # 0 ** b is 0 for b >= 1, 1 for b == 0
        lo = 0 if bhi >= 1 else 1
    return lo, hi


def abs_(a: Range) -> Result:
    """``abs``; ``abs(min)`` is 2**63, which the caller's range check makes ``INT``."""
    lo, hi = a
    if lo >= 0:
        return lo, hi
    if hi <= 0:
        return -hi, -lo
    return 0, max(-lo, hi)


def min_(a: Range, b: Range) -> Result:
    return min(a[0], b[0]), min(a[1], b[1])


def max_(a: Range, b: Range) -> Result:
    return max(a[0], b[0]), max(a[1], b[1])


# ---------------------------------------------------------------- shifts
def shl(a: Range, b: Range) -> Result:
    """``a << b`` for counts ``b >= 0`` (a negative count raises); counts of 64 and more
    give 0.  Monotone in ``a``, and in ``b`` for a fixed sign of ``a``: corners."""
    blo, bhi = max(b[0], 0), b[1]
    if blo > bhi:
        return None
    parts = [(0, 0)] if bhi >= 64 else []
    top = min(bhi, 63)
    if blo <= top:
        parts.append(_corners(lambda x, y: x << y, a, (blo, top)))
    return _hull(parts)


def shr(a: Range, b: Range) -> Result:
    """``a >> b`` for counts ``b >= 0``, counts above 64 acting as 64: corners."""
    blo, bhi = max(b[0], 0), b[1]
    if blo > bhi:
        return None
    return _corners(lambda x, y: x >> y, a, (min(blo, 64), min(bhi, 64)))


# ---------------------------------------------------------------- bitwise
def _width(v: int) -> int:
    """2**k - 1 >= v for a non-negative ``v``: all ones below v's top bit."""
    return (1 << v.bit_length()) - 1


def _bitwise_part(op: str, a: Range, an: bool, b: Range, bn: bool) -> Range:
    """``a op b`` for operands of one sign each (``an``: ``a`` is negative).  A negative
    ``x`` is ``~x'`` with ``x' >= 0``, and ``~`` swaps ``&`` and ``|`` (De Morgan)."""
    if an and not bn:
        a, an, b, bn = b, bn, a, an
    alo, ahi = a
    blo, bhi = b
    if not an and not bn:
        ones = max(_width(ahi), _width(bhi))
        if op == "&":
            return 0, min(ahi, bhi)
        if op == "|":
            return max(alo, blo), ones
        return 0, ones
    if not an:  # a >= 0 > b
        if op == "&":
            return 0, ahi
        if op == "|":
            return blo, -1
        return -(max(_width(ahi), _width(~blo)) + 1), -1
    # both negative: ~a and ~b lie in [~hi, ~lo], non-negative
    ones = max(_width(~alo), _width(~blo))
    if op == "&":
        return -(ones + 1), min(ahi, bhi)
    if op == "|":
        return max(alo, blo), -1
    return 0, ones


def bitwise(op: str, a: Range, b: Range) -> Result:
    """``a & b``, ``a | b`` or ``a ^ b`` (``op``): the hull over the sign parts."""
    return _hull([_bitwise_part(op, pa, na, pb, nb)
                  for pa, na in _sign_parts(a) for pb, nb in _sign_parts(b)])


def invert(a: Range) -> Result:
    return ~a[1], ~a[0]


# ---------------------------------------------------------------- comparisons
def compare(symbol: str, a: Range, b: Range) -> bool | None:
    """``a symbol b`` if every pair of values in the ranges agrees, else None."""
    alo, ahi = a
    blo, bhi = b
    if symbol in (">", ">="):
        symbol = "<" if symbol == ">" else "<="
        alo, ahi, blo, bhi = blo, bhi, alo, ahi
    if symbol == "<":
        return True if ahi < blo else False if alo >= bhi else None
    if symbol == "<=":
        return True if ahi <= blo else False if alo > bhi else None
    disjoint = ahi < blo or bhi < alo
    same = alo == ahi == blo == bhi
    if symbol == "==":
        return False if disjoint else True if same else None
    return True if disjoint else False if same else None  # !=


def out_of_bounds(i: Range, n: Range) -> bool | None:
    """``not (-n <= i < n)`` if decided for every index and length in the ranges."""
    ilo, ihi = i
    nlo, nhi = n
    if -nlo <= ilo and ihi < nlo:
        return False  # inside even the shortest length
    if ilo >= nhi or ihi < -nhi:
        return True  # outside even the longest
    return None
