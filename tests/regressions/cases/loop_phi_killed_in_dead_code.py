"""Found by son.fuzz (seed=47125 index=15502): crash in the parse (TypeError: 'NoneType'
object is not subscriptable): ``t6 = c0`` always raises NameError, so the ``while``
loop after it is dead code, and folding its condition (a sort with a ``key=``, itself
loops) killed one of the loop's Phis before the back edge was closed; closing skips a
killed Phi now (son/frontend/loops.py ``_loop_once``)."""

# ruff: noqa  (a generated program)

import cmath
import functools
import math
import operator

import numpy as np
import numpy.typing as npt


def f(n0: int, x0: float):
    fuel = 0
    t6 = c0
    while sorted([0], key=lambda v: 0):
        fuel += 1
        if fuel > 40:
            break

ARGS = [(4611686018427387904, 0.5, ), (0, 2.989, ), (2147483648, -3.34, )]
