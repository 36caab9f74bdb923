"""Found by son.fuzz (seed=2601 index=2099): CPython raises IndexError (m0[i1] with
i1 = -INT64_MAX), the kernel returned normally ("mismatch in kernel"): ``range(-INT64_MAX, 6)``
has more than INT64_MAX elements, numba's length wrapped and the loop did not run.
Fixed in codegen (``_range_loop``, bounds of constant start and stop)."""

# ruff: noqa  (a generated program)

import math
import numpy as np
import numpy.typing as npt

def f(n1: int, p0: bool, n0: int, a0: np.ndarray, x0: float, n2: int):
    fuel = 0
    m0 = np.ones(5, dtype=np.int64)
    for i1 in range(-9223372036854775807, 6):
        fuel += 1
        if fuel > 40:
            break
        for i2 in range(0, 0, m0[i1]):
            fuel += 1
            if fuel > 40:
                break

ARGS = [(3, True, 7, np.array([-1.26, 1e+308, -1.0, -2.78, -2.32], dtype=np.float64), 2.5, 1, )]
