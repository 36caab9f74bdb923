"""Found by son.fuzz (seed=27125 index=1603): refused, "variable 't1' may be used before
it is assigned": a variable that is None on one path and unbound on the others had no
placeholder for the unbound paths (its reads are guarded by its flag).  None now stands
in (son/frontend/core.py ``placeholder``)."""

# ruff: noqa  (a generated program)

import cmath
import functools
import math
import operator

import numpy as np
import numpy.typing as npt


def f(n0, x0):
    fuel = 0
    v0 = False
    v1 = x0
    pr0 = ((not (v1 <= x0)), n0)
    pr1 = (((v1 / n0) / (1j).imag), n0)
    o0 = pr1[1]
    o0 = None
    v1 *= math.exp(v1)
    v0 = ((n0 * pr1[-1]) != n0)
    if (not True):
        return math.isclose(x0, pr1[0], abs_tol=1e-3)
    if ((pr1[1] if v0 else n0) == int(v0)):
        v0 = ((n0 ** 2) == 1)
        v1 /= (max(v1, v1) / (2 + x0))
    elif math.isclose(math.asin(pr1[-2]), abs(v1), abs_tol=x0):
        t1 = o0
        t2 = o0
        while v0:
            fuel += 1
            if fuel > 40:
                break
            t1 = t1 + n0
            if t1 != t2 + n0:
                v0 = bool(n0)
            t2 = t2 + n0
    v0 = math.isclose(x0, (x0 ** 2.0), abs_tol=1e-3)
    return (t1 < math.fabs(v1) <= o0)

ARGS = [(-8, 0.0, ), (7, 5e-324, ), (2, 1e+308, )]

