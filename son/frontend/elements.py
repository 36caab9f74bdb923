"""numpy's elementwise functions that are no single node of son's, written in the
Python son compiles and inlined per element of a whole-array chain, or called on
numbers (son/frontend/composites.py ``COMPOSITES``): NNVM's SimplifyInference, a
composite operator rewritten into primitives, done while parsing.  Each follows
numpy's own C code (``npy_logaddexp``, ``npy_divmod``, ``np.sinc``) step for step, so
its result is numpy's bit for bit wherever the primitives are (``np.sin``'s SIMD
loops aside, see docs/decisions.md).  O(1) each."""

from __future__ import annotations

import math

import numpy as np

#: numpy's NPY_LOGE2 and NPY_LOG2E (the doubles nearest to ln 2 and 1 / ln 2)
LOGE2 = 0.6931471805599453
LOG2E = 1.4426950408889634


def logaddexp(x, y):
    """``log(exp(x) + exp(y))`` without overflow, as numpy's ``npy_logaddexp``."""
    if x == y:  # equal infinities among them
        return x + LOGE2
    tmp = x - y
    if tmp > 0.0:
        return x + math.log1p(math.exp(-tmp))
    if tmp <= 0.0:
        return y + math.log1p(math.exp(tmp))
    return tmp  # NaN


def logaddexp2(x, y):
    """``log2(2**x + 2**y)``, as numpy's ``npy_logaddexp2``."""
    if x == y:
        return x + 1.0
    tmp = x - y
    if tmp > 0.0:
        return x + LOG2E * math.log1p(math.exp2(-tmp))
    if tmp <= 0.0:
        return y + LOG2E * math.log1p(math.exp2(tmp))
    return tmp


def sinc(x):
    """numpy's ``sinc``: ``sin(pi x) / (pi x)``, 1e-20 standing for a zero ``x``."""
    y = math.pi * (1.0e-20 if x == 0.0 else x)
    return np.sin(y) / y


def deg2rad(x):
    return x * (math.pi / 180.0)


def rad2deg(x):
    return x * (180.0 / math.pi)


def reciprocal(x):
    """IEEE ``1 / x``: a signed infinity for a zero."""
    if x == 0.0:
        return math.copysign(math.inf, x)
    return 1.0 / x


def floor_divide(x, y):
    """numpy's float ``x // y``: Python's, but IEEE ``x / y`` for a zero divisor."""
    if y == 0.0:
        if x != x or x == 0.0:
            return math.nan
        return math.copysign(math.inf, x) * math.copysign(1.0, y)
    return x // y


def remainder(x, y):
    """numpy's float ``x % y``: Python's, but NaN (C's ``fmod``) for a zero divisor."""
    if y == 0.0:
        return math.nan
    return x % y


def heaviside(x, h0):
    """numpy's ``npy_heaviside``: NaN for NaN, ``h0`` at zero, else 0 or 1."""
    if x != x:
        return math.nan
    if x == 0.0:
        return h0
    return 1.0 if x > 0.0 else 0.0


def nextafter(x, y):
    return math.nextafter(x, y)


def signbit(x):
    return math.copysign(1.0, x) < 0.0


def isposinf(x):
    return x == math.inf


def isneginf(x):
    return x == -math.inf


def nan_to_num(x):
    """numpy's defaults: 0.0 for NaN, the largest finite float for an infinity."""
    if x != x:
        return 0.0
    if x == math.inf:
        return 1.7976931348623157e308
    if x == -math.inf:
        return -1.7976931348623157e308
    return x


def same(x):
    return x


def greater(x, y):
    return x > y


def greater_equal(x, y):
    return x >= y


def less(x, y):
    return x < y


def less_equal(x, y):
    return x <= y


def equal(x, y):
    return x == y


def not_equal(x, y):
    return x != y


def logical_and(x, y):
    return x != 0 and y != 0


def logical_or(x, y):
    return x != 0 or y != 0


def logical_xor(x, y):
    return (x != 0) != (y != 0)


def logical_not(x):
    return x == 0


def fix(x):
    """``np.fix`` of a float: rounded toward zero (``np.trunc``; -0.0 for ``-0.5``)."""
    return np.trunc(x)


def spacing(x):
    """numpy's ``spacing``: the gap to the next float away from zero (``-0.0`` and
    ``0.0`` both upward), NaN for an infinity."""
    if x == math.inf or x == -math.inf:
        return math.nan
    if x < 0.0:
        return math.nextafter(x, -math.inf) - x
    return math.nextafter(x, math.inf) - x


#: 2**1023, and 2**-1022 * 2**53 (musl's scalbn: a step that leaves room for the one rounding)
_BIG, _SMALL = 8.98846567431158e307, 2.004168360008973e-292


def ldexp(x, n):
    """``x * 2**n`` rounded once, inf or 0 past the range (C's ``ldexp``; ``math.ldexp``
    raises OverflowError where numpy's gives inf).  Big exponents are applied in steps
    of exact powers of two, as musl's ``scalbn``."""
    y = float(x)
    if n > 1023:
        y = y * _BIG
        n = n - 1023
        if n > 1023:
            y = y * _BIG
            n = min(n - 1023, 1023)
    elif n < -1022:
        y = y * _SMALL
        n = n + 969
        if n < -1022:
            y = y * _SMALL
            n = max(n + 969, -1022)
    return y * 2.0 ** n


def invert_int(x):
    return ~x


def left_shift(a, b):
    """numpy's ``a << b`` of int64s: 0 for a count outside [0, 64)."""
    if b < 0:
        return 0
    return a << b


def right_shift(a, b):
    """numpy's ``a >> b`` of int64s: the sign (0 or -1) for a count outside [0, 64)."""
    if b < 0:
        return -1 if a < 0 else 0
    return a >> b


_INT64_MIN = -9223372036854775808


def gcd(x, y):
    """numpy's ``gcd`` of int64s: Euclid on the magnitudes as unsigned ints, so
    ``|-2**63|`` is 2**63 (-2**63 as an int64 result)."""
    if x == _INT64_MIN or y == _INT64_MIN:
        other = abs(y if x == _INT64_MIN else x)
        if other == 0 or other == _INT64_MIN:
            return _INT64_MIN
        return other & -other  # the powers of two 2**63 shares with it
    a, b = abs(x), abs(y)
    while a != 0:
        a, b = b % a, a
    return b


def lcm(x, y):
    """numpy's ``lcm`` of int64s: ``|x| // gcd * |y|`` wrapping as int64 (the product
    of the unsigned magnitudes modulo 2**64)."""
    g = gcd(x, y)
    if g == 0:
        return 0
    return abs(x) // g * abs(y)
