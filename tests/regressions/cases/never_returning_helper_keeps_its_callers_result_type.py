"""Found by son.fuzz (seed=112705 index=2262): numba refused the kernel of f (getitem
of an int).  The recursive helper h0 returns a pair on the path where its argument is
out of range; the only call passes 1, so the constant-argument pass made that path dead
and h0 always raises.  A function that never returns writes a dummy return of the type
it is assumed to give, taken from its own calls (none left) or an int, where f reads a
pair.  Fixed: the graph keeps the result type its callers assume (``Graph.result``, set
by son/frontend/recursion.py) and son/exec/codegen.py's ``_never_value`` returns a value
of it.  son.jit had run f in CPython (its answers were right), with a warning."""

# ruff: noqa  (a generated program)

import cmath
import functools
import math
import operator

import numpy as np
import numpy.typing as npt


def h0(q0):
    if q0 < 1 or q0 > 4:
        return (4294967296, 0.1)
    fuel = 0
    return (int(math.inf), math.pi)
    if (isinstance(-1.5, float) or (1 == q0)):
        return (((q0 if (1.0 == 3.0) else q0) * math.floor(math.copysign(-math.inf, 0.1))), (abs(cmath.log(1j)) if bool(h0(q0 - 1)[0]) else -1.5))
    return (h0(q0 - 1)[0], ((1e16 * 1j)).imag)


def h1(q0, q1):
    if q1 < 1 or q1 > 4:
        return (2147483647, 8)
    w1 = q1
    fuel = 0
    w1 = 12
    return (h1(q0, q1 - 1)[0], q1)


SON_FALLBACK = "region"
CALLS = 0


class FuzzError(Exception):
    pass


def f(x0: float, a0: np.ndarray, p0: bool):
    fuel = 0
    v0 = float(12)
    v1 = ((x0 * x0) - (v0 / 1))
    v2 = math.isfinite(math.nan)
    pr0 = ((x0 * (v0 // v1)), True)
    pr1 = h0((255 ** 0))
    z0 = (1j ** 0.5)
    l0 = -1 * [10]
    global CALLS
    CALLS += 1
    seen = {}
    last = {}
    tag = f"x0={x0} v0={v0:g} v0={v0:g}"
    cnt_py = len(seen)
    len_py = len(tag)
    quo_py = float(len(last))
    print(f"v1={v1}")
    l0[(lambda u0: u0)(pr1[0]) % len(l0)] = int(sum(((g1 * v1) for g1 in l0 for g2 in range(3)), 0.0))
    x0 -= float(sum(l0))
    return max((float(sum(l0)) for g3 in l0), default=(x0 - x0))

ARGS = [(1.0, np.array([1e+308, 0.0, 0.48, -0.31, -2.22, 0.88, -3.55, 4.25], dtype=np.float64), False, ), (-1.0, np.array([0.5, -0.03, 3.81, 2.49, 0.5, -2.93, -0.0, 3.86], dtype=np.float64), False, ), (-9.151, np.array([-4.89, -0.86, -0.0, 4.67, 0.49, 3.67, -1.96, -3.76], dtype=np.float64), False, )]
