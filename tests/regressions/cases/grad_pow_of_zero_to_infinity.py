"""Found by son.fuzz (seed=6125 index=15171): son.grad was nan where son.jvp and finite
differences give 0.0.  ``(v0 - v0) ** inf`` is 0.0 ** inf, constant 0 around there; the
partial in the base, ``y * x ** (y - 1)``, was IEEE's ``inf * 0.0 = nan``, and reverse mode
multiplies it by a non-zero adjoint (forward mode by the tangent of ``v0 - v0``, exactly
0).  Fixed in son/grad/rules.py (pow_rule): that product is a strong zero, ``ZMul``."""

# ruff: noqa  (a generated program)

import math
import numpy as np
import numpy.typing as npt

def f(n1: int, x0: float, n0: int):
    fuel = 0
    v1 = math.inf
    v0 = 4
    v0 /= x0
    return (v0 - v0) ** v1

ARGS = [(1, 1.5, 0, )]
ORACLE = 'grad'
