"""Found by son.fuzz (seed=777 index=1): son.jvp was nan where son.grad and finite
differences give 0.0.  ``max(x2 * inf, 0.0)`` took 0.0, so the partial through its first
operand is 0.0, and the tangent of ``x2 * inf`` is inf: ``0.0 * inf`` is nan.  Fixed with
``ZMul`` in forward mode too: an exact zero on either side of the product absorbs the
other."""

# ruff: noqa  (a generated program)

import math
import numpy as np
import numpy.typing as npt

def f(x1: float, x0: float, p0: bool, x2: float):
    fuel = 0
    u4 = x2 * math.inf
    u4 = max(u4, 0.0)
    return u4

ARGS = [(1.5, 1.5, False, -1.5, )]
ORACLE = 'grad'
