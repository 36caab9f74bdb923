"""Found by son.fuzz (seed=12125 index=2): the guards pass raised UnboundLocalError where
CPython returns 1.  Proving ``2 <= i6`` at the second loop's header, the difference-bound
chase went through the fact ``i3 >= 2`` learned after the first loop and used it inside
the induction over the first loop's phi (``i3 + 1 <= i3``?), where it does not hold:
that fact speaks of i3's last value, not of every iteration.  The induction step of a
loop phi now uses only what holds wherever a value is computed (son/sccp/guards.py,
``_le`` with ``facts=False``); ``i6 < 2`` was decided false and the loop's body, which
binds acc4, was cut."""

# ruff: noqa  (a generated program)

import math
import numpy as np
import numpy.typing as npt

def f(x0):
    fuel = 0
    i3 = 0
    while i3 < 2:
        i3 += 1
    for i6 in range(2):
        acc4 = 1
    return acc4

ARGS = [(0.0, )]
