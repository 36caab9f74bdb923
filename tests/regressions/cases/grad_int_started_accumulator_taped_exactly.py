"""Found by son.fuzz (seed=777 index=23): son.grad gave 683.0 where son.jvp and finite
differences give 763.0.  ``acc4 = phi(2, acc4 ** 2 + x0)`` is an int on entry and a float
after one iteration ('number'); reverse mode rebuilt the partial ``2 * acc4`` from
``acc4`` recorded on the int64 tape, truncating 3.5 to 3.  Fixed in son/grad/recording.py:
a 'number' value is never a leaf to rebuild from, a 'number' partial is taped as its
float, and ``Tapes.push`` asserts the kind."""

# ruff: noqa  (a generated program)

import math
import numpy as np
import numpy.typing as npt

def f(x0: float):
    fuel = 0
    acc4 = 2
    for i5 in range(3):
        acc4 = acc4 ** 2 + x0
    return acc4

ARGS = [(1.5, )]
ORACLE = 'grad'
