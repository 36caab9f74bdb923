"""Found by son.fuzz (seed=2411 index=10481): every stage raised ZeroDivisionError where
CPython returns ("mismatch in raw").  ``range(2147483647, n0, n0)`` with n0 = INT64_MAX
has one element; the parser's hidden counter stepped past it as 2147483647 + INT64_MAX,
which wraps to a negative int64, passed ``i < stop`` and ran the body again with i1 < 0.
Fixed in the parser: unless the step is +-1 (or stop and step are constants whose sum
fits), the latch decides whether another element follows i before stepping (stop - i
beyond the step, or wrapped) and carries that to the loop test in a hidden flag."""

# ruff: noqa  (a generated program)

import math
import numpy as np
import numpy.typing as npt

def f(n0: int, a0: npt.NDArray[np.float64]):
    fuel = 0
    v0 = n0
    for i1 in range(2147483647, v0, n0):
        fuel += 1
        if fuel > 40:
            break
        v0 //= -1 // i1
    return v0

ARGS = [(9223372036854775807, np.array([], dtype=np.float64), ), (3, np.array([1.0]), ), (-9223372036854775807, np.array([], dtype=np.float64), )]
