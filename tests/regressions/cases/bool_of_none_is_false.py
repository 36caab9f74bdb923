"""Found by son.fuzz (seed=21125 index=1444): the raw parse raised TypeError where CPython
returns 0.  ``bool(o0)`` with ``o0`` None is False; the call read its argument as a
number, and None as a number raises.  ``bool(x)`` is now the truth of ``x`` as it is
(son/frontend/calls.py), None and values that may be None included."""

# ruff: noqa  (a generated program)

import math
import operator
import numpy as np
import numpy.typing as npt

def f(a0: np.ndarray, p0: bool, x1: float, x0: float):
    fuel = 0
    o0 = None
    if bool(o0):
        return 1
    else:
        pass
    return 0

ARGS = [(np.array([], dtype=np.float64), False, 0.0, 1.0, )]
