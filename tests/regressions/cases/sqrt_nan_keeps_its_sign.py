"""Found by son.fuzz (seed=47125 index=11826): every interpreter stage returned None
where CPython raises ValueError.  ``np.sqrt`` of a negative is ``-nan`` on x86 (one IEEE
instruction, in numpy's loops and in a kernel alike), and the sign reached
``math.copysign(0.5, v1)``, a negative ``abs_tol`` for ``math.isclose``; the kernel was
right, but the interpreter made every NaN a math function returns ``+nan``.  It keeps a
square root's NaN now (son/nodes/mathfn.py ``MathCall.eval``; other functions' NaN
signs are numpy's loops' choice and stay canonical, docs/decisions.md)."""

# ruff: noqa  (a generated program)

import cmath
import functools
import math
import operator
import numpy as np
import numpy.typing as npt
SON_FALLBACK = 'region'

def f(n0: int, b0: npt.NDArray[np.int64], n1: int):
    fuel = 0
    v0 = 5
    v1 = np.mean(np.sqrt(b0)) * (-0.0 * math.pi)
    v2 = v0
    pr0 = (v1, 11 - n1 < (n1 if v2 else n0) == -3 % -2)
    l0 = [math.isclose(pr0[-2], v1) for c1 in b0]
    r0 = b0[::-1] * v1
    r1 = abs(r0)
    r2 = r0 + r0 - 1 == 1e+308 / r1 - 2
    last = {}
    quo_py = float(len(last))
    while any((np.any(r1) for g2 in l0)):
        fuel += 1
        if fuel > 40:
            break
        v2 = math.isclose(v1, quo_py, abs_tol=quo_py % -13 if np.any(r2) else math.copysign(0.5, v1))

ARGS = [(-3, np.array([100, -6, -2, -4, -9, 4, 3, -7], dtype=np.int64), 9223372036854775807, )]
