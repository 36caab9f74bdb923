"""Found by son.fuzz (seed=21125 index=486): the raw parse raised TypeError where CPython
returns None.  ``4611686018427387904 != 0 != o1`` with ``o1`` None is ``0 != None``,
True; the chained comparison read its later operands through ``expr``, which reads a
value that may be None as a number (behind CPython's TypeError), where ``!=`` takes it
as it is.  Chained operands are now read with ``expr_any`` (son/frontend/expressions.py)."""

# ruff: noqa  (a generated program)

import math
import operator
import numpy as np
import numpy.typing as npt

def f(n0, x0, n2, n1, p0: bool):
    fuel = 0
    o1 = 0 if False else None
    if 4611686018427387904 != 0 != o1:
        pass

ARGS = [(0, 0.0, 0, 0, False, )]
