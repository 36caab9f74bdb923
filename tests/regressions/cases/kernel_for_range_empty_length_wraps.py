"""Found by son.fuzz (seed=2601 index=2156): the kernel ran the body of ``for i2 in
range(1, n2)`` with n2 = INT64_MIN, an empty range, because numba's length ``n2 - 1``
wrapped to INT64_MAX ("mismatch in kernel").  Fixed in codegen (``_range_loop``): a loop
whose range length may wrap, on either side, stays a while loop."""

# ruff: noqa  (a generated program)

import math
import numpy as np
import numpy.typing as npt

def f(n1: int, x0: float, p0: bool, n2: int, b0: npt.NDArray[np.int64], n0: int):
    fuel = 0
    n2 = n1
    for i2 in range(1, n2):
        fuel += 1
        if fuel > 40:
            break
        n2 = 2147483647
    return n2

ARGS = [(-9223372036854775808, 0.0, False, 0, np.array([], dtype=np.int64), 0, )]
