"""Found by son.fuzz (seed=2 index=380, and index=174 the same way): the kernel skipped an
IndexError.  Numba emits int64 ``+ - *`` with LLVM's ``nsw`` flag (signed overflow is
undefined), and LLVM rewrote ``n + INT64_MIN`` into ``n | INT64_MIN``, so the wrapped index
INT64_MAX looked negative and in range.  Fixed in son/exec/emit.py ``_binop``: int
``+ - *`` are computed in uint64, which wraps."""

import math

import numpy as np


def f(a0: np.ndarray, n0: int, x0: float):
    x1 = a0[-9223372036854775807 - 1 + n0]
    x0 = math.trunc(n0 + (-9223372036854775807 - 1) - 2.5)
    return n0 * 3 + x0 + x1


ARGS = [(np.array([-1.73], dtype=np.float64), -1, 0.0), (np.array([1.5, 2.5], dtype=np.float64), 0, 1.0),
        (np.array([0.5], dtype=np.float64), -9223372036854775807, 2.0),
        (np.array([0.5, 1.5], dtype=np.float64), 9223372036854775807, 2.0)]
