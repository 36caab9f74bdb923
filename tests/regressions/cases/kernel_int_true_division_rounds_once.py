"""Found by son.fuzz (seed=2500 index=6715): the kernel's ``1 / (1000003 - n0)`` at
n0 = INT64_MIN was one ulp off CPython's.  The int64 difference wraps to
INT64_MIN + 1000003, beyond 2**53: numba divides ``float(a) / float(b)``, rounding the
divisor and then the quotient, where CPython rounds the exact quotient of the two ints
once.  Fixed in son/exec/emit.py: int / int calls ``_int_truediv``, which divides
operands within 2**53 as floats (exact) and develops the quotient of larger ones in
uint64, rounded half to even."""

# ruff: noqa  (a generated program)

import math
import numpy as np
import numpy.typing as npt

def f(x0: float, b0: npt.NDArray[np.int64], n0: int):
    fuel = 0
    return 1 / (1000003 - n0)

ARGS = [(0.0, np.array([], dtype=np.int64), -9223372036854775808, ),
        (0.0, np.array([], dtype=np.int64), 7, ),
        (0.0, np.array([], dtype=np.int64), 1000003 - 2**53 - 1, )]
