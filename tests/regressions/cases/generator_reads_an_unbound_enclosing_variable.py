"""Found by son.fuzz (seed=31125 index=163): a generator expression read a variable of
the enclosing function that was never bound; CPython raises NameError there (a free
variable of the generator's scope), son raised UnboundLocalError, the error for a local.
son/frontend/names.py ``_unbound`` now tells the two apart."""

# ruff: noqa  (a generated program)

import cmath
import functools
import math
import operator
import numpy as np
import numpy.typing as npt

def f(x1: float, p0: bool, a0: np.ndarray, x0: float, n0: int, n1: int):
    fuel = 0
    pr1 = (0, 0)
    while 0:
        fuel += 1
        if fuel > 40:
            break
        t2 = 0
    x0 /= min((t2 for g6 in pr1))

ARGS = [(0.0, False, np.array([], dtype=np.float64), 0.0, 0, 0, )]
