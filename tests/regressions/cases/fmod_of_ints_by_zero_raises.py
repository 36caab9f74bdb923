"""Found by review (an audit of the math functions against CPython): ``math.fmod(n, 0)``
with int arguments returned ``0.0`` in every interpreted stage, where CPython raises
``ValueError: math domain error``.  ``MathCall.eval`` fell back to numpy for the IEEE
value the guard reads and numpy's *int* fmod(82, 0) is 0, not NaN.  Fixed in
son/nodes/mathfn.py: the fallback converts the arguments to floats, as math does."""

# ruff: noqa  (a shrunk program)

import math


def f(n: int, m: int):
    return math.fmod(n, m)

ARGS = [(82, 0), (7, 3), (-7, 3), (0, 0)]
