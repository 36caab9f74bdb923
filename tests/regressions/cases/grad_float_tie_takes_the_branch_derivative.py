"""Found by son.fuzz (seed=9125 index=2009): the gradient oracle reported son.grad's and
son.jvp's 0.0 against finite differences' 1.0.  At x0 == x1 the function takes the
branch ``u2 = x1``, whose slope in x0 is 0 (son's documented derivative: that of the
branch taken, as JAX's); the function is x0 everywhere, so finite differences see 1.
Not a son bug: the oracle now counts a float comparison that ties as a point where
finite differences do not judge (son/fuzz/oracle.py, ``_Runtime.compare``)."""

# ruff: noqa  (a generated program)

import math
import numpy as np
import numpy.typing as npt

def f(x0: float, x1: float, n0: int):
    fuel = 0
    u2 = x0
    if x0 == x1:
        u2 = x1
    else:
        pass
    return u2

ARGS = [(0.821, 0.821, 0, )]
ORACLE = 'grad'
