"""Found by son.fuzz (seed=27125 index=441): refused, "this return gives a single value
but the return at line 33 gives a complex number": a return in unreachable code (after
``np.empty(-1)`` raises) gives a dead value, which now counts as any shape
(son/frontend/statements.py ``stmt_Return``)."""

# ruff: noqa  (a generated program)

import cmath
import functools
import math
import operator

import numpy as np
import numpy.typing as npt


def h0(q0, q1):
    w1 = q1
    fuel = 0
    w1 %= min((round(float(math.inf)) << ((q0 + q0) & 63)), ((q0 * q0) if (q1 < 3.0) else (-w1)))
    w1 %= q1
    return (((1e-320 if False else math.nan) - operator.neg(1.0)), (1.0 if True else math.pi))


def f(x1: float, x0: float):
    fuel = 0
    v0 = 1.0
    v1 = (math.pi + (x0 * -4))
    v2 = x0
    v3 = ((lambda u0: u0)(v1) + (v1 - x1))
    pr0 = ((bool(0.1) or math.isinf(v0)), v2)
    pr1 = ((0).bit_length(), (math.exp(x1) / (v3 / 2)))
    o0 = math.isinf(pr1[1])
    o1 = None
    m0 = np.empty(-1, dtype=np.int64)
    for j0 in range(len(m0)):
        m0[j0] = 3
    if 1 > 2:
        if pr0[0]:
            return cmath.rect((v3 if pr0[0] else x0), 1.0)
        v0 = (v2 // x0)
        pr0 = pr0
    else:
        if ((pr0[1] + 3.0) < math.degrees(0.1)):
            return ((pr1[0] * -2) * (0j + (False * 1j)))
        x0 -= (v2 * math.atan2((complex(pr0[-1], math.nan)).imag, x1))
    v0 = float('-0.0')
    return ((o1 if o1 is not None else 2) * 1j)

ARGS = [(-1.0, -0.058, ), (-1.0, -7.285, ), (3.74, 0.5, )]

