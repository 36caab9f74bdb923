"""Found by son.fuzz (seed=21125 index=7613): the raw parse raised TypeError where CPython
returns None.  ``o1 not in pr0`` with ``o1`` None and ``pr0`` a tuple of ints is True
(None == 0 is False); ``compare`` raised CPython's TypeError for None operands before
it dispatched ``in``, whose element is compared, not read as a number.  ``in`` now
reads only its container (son/frontend/expressions.py ``compare``)."""

# ruff: noqa  (a generated program)

import math
import operator
import numpy as np
import numpy.typing as npt

def f(x0: float, n0: int, x1: float):
    fuel = 0
    pr0 = (0, 0)
    o1 = None
    while o1 not in pr0:
        fuel += 1
        if fuel > 40:
            break
    return fuel

ARGS = [(0.0, 0, 0.0, )]
