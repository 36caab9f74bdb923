"""Found by son.fuzz (seed=10125 index=4449): the kernel returned 0.0 where CPython
returns -0.0.  numba writes a float's ``-x`` as ``fsub -0.0, x``; LLVM folded it for a
NaN operand to a NaN with the sign bit clear, where CPython flips the sign of any
float, NaN included.  Float negation is now the intrinsic ``negate`` (LLVM's ``fneg``,
son/exec/numba_ext.py), and a negative NaN literal is written ``negate(math.nan)``.
The same class in the lattice: constants were keyed with every NaN equal, so
``-math.nan`` folded into the constant ``math.nan`` (son/nodes/types.py, ``_con_key``,
now keeps the sign)."""

# ruff: noqa  (a generated program)

import math
import numpy as np
import numpy.typing as npt

def f(n0: int, x0: float, n1: int, n2: int):
    fuel = 0
    v0 = -(math.nan + x0)
    return math.copysign(0, v0) + math.copysign(1.0, -math.nan) * 0.5

ARGS = [(0, 0.0, 0, 0, )]
