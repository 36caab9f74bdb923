"""Found by son.fuzz (seed=2601 index=1773): the kernel returned n0 unchanged where CPython
returns 255 ("mismatch in kernel").  The counted loop had just become ``for i1 in
range(n0, 1)``; with n0 = -INT64_MAX the range has 2**63 elements, and numba counts them
as ``stop - start`` in int64, which wraps negative: the loop never ran.  Fixed in codegen
(``_range_loop``): a range whose length may pass INT64_MAX stays a while loop."""

# ruff: noqa  (a generated program)

import math
import numpy as np
import numpy.typing as npt

def f(n0: int, x0: float):
    fuel = 0
    for i1 in range(n0, 1):
        fuel += 1
        if fuel > 40:
            break
        x0, n0 = (3.0, 255)
    return n0

ARGS = [(-9223372036854775807, 0.0, )]
