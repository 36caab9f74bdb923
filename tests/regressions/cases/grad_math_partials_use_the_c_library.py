"""Found by son.fuzz (seed=7125 index=4520): the gradient kernel of ``math.cosh(x0)``
was an ulp apart from the gradient interpreted, at one of these points.  The partial
``sinh(x0)`` was built as numpy's ``np.sinh``, which numpy computes with its own SIMD
loops in the interpreter while the kernel calls the C library.  Fixed in
son/grad/rules.py: derivative rules build the ``math`` flavour (the C library's, as
for the primal) wherever it is float -> float, so both call the same function."""

# ruff: noqa  (a generated program)

import math
import numpy as np
import numpy.typing as npt

def f(x0: float):
    return math.cosh(x0) + math.sinh(x0) * math.sin(x0) - math.log1p(x0 * x0) + math.atan(x0)

ARGS = [(1.637, ), (2.528, ), (0.821, ), (-2.214, ), (-0.6, ), (-3.165, ), (1.384, ), (1.1, ), (-1.785, )]
ORACLE = 'grad'
