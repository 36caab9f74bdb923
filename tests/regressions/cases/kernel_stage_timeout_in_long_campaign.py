"""Found by son.fuzz (seed=2029 index=11549) in a long parallel campaign: the kernel
stage gave no result within the 60 s per-program deadline, and the same worker then
reported "module 'numba' has no attribute 'core'" for later programs.  Alone (with or
without a warm cache, on the code of the time and now) the whole check takes about 1 s,
so the program itself is fine; the second symptom shows the worker's numba was broken:
the deadline's SIGALRM exception can land in the middle of a numba import or compile.
Hardened in son.fuzz.campaign: workers import numba before any deadline, and a worker
whose program ran out of time ends and is replaced.  Kept so the program stays checked."""

# ruff: noqa  (a generated program)

import math

import numpy as np
import numpy.typing as npt


def f(p0: bool, a0: np.ndarray, b0: npt.NDArray[np.int64], n0: int, x0: float, n1: int):
    fuel = 0
    v0 = (8 / n0)
    v1 = n1
    v2 = (abs(-1.5) if (not p0) else -0.0)
    c0 = 4
    v2 = math.sqrt((x0 + x0))
    v1 = (v1 * v1)
    n1 += int(v0)
    t1 = n0
    t2 = n0
    while p0:
        fuel += 1
        if fuel > 40:
            break
        t1 = t1 + min(c0, n0)
        if t1 != t2 + min(c0, n0):
            v2 = (-math.inf * c0)
        t2 = t2 + min(c0, n0)
    while True:
        fuel += 1
        if fuel > 40:
            break
        v1 = int(x0)
        if ((n1 * 6) < math.cosh(1e-320)):
            return (-(9 % n1))
        v2 = ((v2 // x0) - v0)
        p0 = (0 > math.copysign((-v2), -0.0))
    if p0:
        v0 = abs(((v2 if p0 else v2) ** 3.0))
        v0 += (a0[1 % len(a0)] + ((9223372036854775807 if p0 else t1) + v1))
        a0[(v1 ** 4) % len(a0)] = t1
    elif (not (v1 == -math.inf)):
        v0 = (x0 if ((v1 != 0) and (n1 > n0)) else ((v2 / 0.1) // 1e308))
    elif math.isnan((v0 * v2)):
        pass
    else:
        pass
    return (len(a0) >> (v1 >> (t2 & 63)))

ARGS = [(False, np.array([2.64, -2.08, -1.67], dtype=np.float64), np.array([-3, 0, -9, -4, 1, 100, 0, 3], dtype=np.int64), -12, 1e+308, -8, ), (False, np.array([], dtype=np.float64), np.array([4], dtype=np.int64), -8, 1e+308, -8, ), (True, np.array([-1.29], dtype=np.float64), np.array([-2, 3, -9, -2, -7], dtype=np.int64), 12, -3.75, 2, ), (True, np.array([0.11], dtype=np.float64), np.array([100, -9, 0], dtype=np.int64), -8, -6.025, 3, )]
