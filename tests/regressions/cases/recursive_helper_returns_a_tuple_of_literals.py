"""Found by son.fuzz (seed=112705 index=11771 and 11835): numba refused the kernel of a
recursive helper whose only return that does not come from its own call gives a tuple of
int (or bool) constants: numba types ``(10, 3)`` as a tuple of literals, a struct in LLVM,
where the helper's own calls expect an array of i64 ("Function type returns {i64, i64}
but resty=[2 x i64]").  Fixed in son/exec/structure.py (``unliteral``: such constants in
a recursive function's returned tuples are written ``np.int64(10)``, ``np.bool_(True)``)
and in codegen's ``_never_value``, which writes the assumed result of a function that
never returns."""

# ruff: noqa  (a generated program, shrunk)

import math
import numpy as np


def h0(q0):
    if q0:
        return (10, 3)
    w0 = h0(0)
    return (0, round(math.nan))


def h1(q0, d):
    if q0:
        return (True, False)
    h1(q0 + 1, d)
    raise ValueError("never")


def f(x0: float, p0: bool):
    pr0 = h0(7)
    return pr0[0] + x0, h1(p0, 2)

ARGS = [(0.549, False), (-7.736, True), (math.inf, True)]
