"""Found by son.fuzz (seed=21125 index=17098): the raw parse raised TypeError where CPython
raises IndexError, ``a0[0] = None`` on an empty array; and the same store on a float
array raised TypeError where numpy stores NaN (on a bool array: False; on an int array:
TypeError, after the index check).  A None or a value that may be None is now stored as
numpy stores it, after the bounds guard (son/frontend/arrays.py ``stored_none``)."""

# ruff: noqa  (a generated program)

import math
import operator
import numpy as np
import numpy.typing as npt

def f(a0: np.ndarray, n0: int, p0: bool):
    fuel = 0
    o1 = None
    if p0:
        o1 = n0
    a0[n0] = o1
    a0[0] = None
    return a0[0] + a0[len(a0) - 1]

ARGS = [(np.array([], dtype=np.float64), 0, False, ), (np.array([1.5, 2.5], dtype=np.float64), 1, True, ), (np.array([1.5, 2.5], dtype=np.float64), 1, False, ), (np.array([1.5, 2.5], dtype=np.float64), 3, True, )]
