"""Found by son.fuzz (seed=26125 index=1949): refused, "variable 't2' may be used before
it is assigned", in the raw parse: a variable first bound inside a loop to a value that
may be None (``o if o is not None else i`` with ``o`` None, which only the peephole
folds) was not carried around the loop once the retry learned it is optional, so after
the loop it had no value.  It is now carried as a value that may be None, unbound on
entry (son/frontend/loops.py); the placeholder of a merge ignores values of dead paths
(TOP, tuples of TOP), and reading a variable that may be unbound in unreachable code
gives a dead value instead of the refusal (seed 26125 i1156, after ``np.ones(-1)``)."""

# ruff: noqa  (a generated program)

import cmath
import functools
import math
import operator

import numpy as np
import numpy.typing as npt


def h0(q0):
    fuel = 0
    t1 = (q0 - q0)
    t2 = (q0 - q0)
    while (11 <= q0):
        fuel += 1
        if fuel > 40:
            break
        t1 = t1 + 12
        if t1 != t2 + 12:
            pass
        t2 = t2 + 12
    if (math.inf == float(t2)):
        return ((math.ceil(math.pi) - t1) - (2 // q0))
    if (q0 != (lambda u0: u0)(t2)):
        pass
    return math.isqrt(abs(max(q0, q0)) & 281474976710655)


def f(p0: bool, x0: float, x1: float, n0: int):
    fuel = 0
    v0 = False
    v1 = n0
    v2 = (x0 if (v0 or False) else (n0 / n0))
    o0 = x0
    o1 = None
    n0 = operator.add(v1, 4294967296)
    o0 = x0
    v2 = x1
    v0 = isinstance(((2.5 - 3.0) - (v2 % v2)), float)
    for i1 in range(0):
        o1 = x1 if p0 else None
        if ((2 >> 1) > float(v1)):
            if bool(max(v1, 3)):
                continue
            t2 = h0(v1)
            t3 = h0(v1)
            while (v0 and v0):
                fuel += 1
                if fuel > 40:
                    break
                t2 = t2 + n0
                if t2 != t3 + n0:
                    x0 = -math.inf
                t3 = t3 + n0
        for i4 in range(math.floor(-1.5), (-1 + t2)):
            fuel += 1
            if fuel > 40:
                break
            pass
    return ((v1 // 11) + 9)

ARGS = [(True, -1.0, -3.75, -9223372036854775808, ), (True, -1e+308, 0.0, 1, ), (True, 6.41, -0.353, -8, )]

