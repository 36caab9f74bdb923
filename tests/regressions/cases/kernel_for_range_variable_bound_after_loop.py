"""Found by son.fuzz (seed=2601 index=1916): the kernel raised UnboundLocalError, CPython
returns None ("mismatch in kernel"): ``range(n0, 0)`` with n0 = INT64_MIN has 2**63
elements, numba's length wrapped, the loop did not run and t3 stayed unbound.  Fixed with
kernel_for_range_length_past_int64_max.py."""

# ruff: noqa  (a generated program)

import math
import numpy as np
import numpy.typing as npt

def f(n0: int, x0: float, x1: float):
    fuel = 0
    for i1 in range(n0, 0):
        fuel += 1
        if fuel > 40:
            break
        t3 = 0
    v0, x0 = (t3, 0)

ARGS = [(-9223372036854775808, 0.0, 0.0, )]
