"""Found by son.fuzz (seed=61128 index=2008), the gradient oracle: ``(x - x) / 1e-320``.
Reverse mode gave NaN, forward mode and finite differences 0.0: the adjoint of ``acc1``
is ``1 / 1e-320``, an infinity, and x's adjoint sums ``inf`` and ``-inf``.  That is reverse
mode's arithmetic (JAX gives NaN too), not a wrong rule, and the oracle counts such a
partial as singular when the overflow happens at run time; here the transforms had
folded ``1 / 1e-320`` to a constant infinity while building the graph, where the oracle
did not look.  Fixed in the oracle (son/fuzz/grad.py ``_folded_overflow``): a
derivative graph holding an infinite constant counts as having overflowed."""

# ruff: noqa  (a generated program)

import cmath
import functools
import math
import operator
import numpy as np
import numpy.typing as npt

def f(n0: int, x0: float):
    fuel = 0
    acc1 = x0
    acc1 -= acc1
    acc1 = acc1 / 1e-320
    return acc1

ARGS = [(0, -3.218, ), (2, 1.162, ), (0, math.nan, ), (2, 2.75, )]
ORACLE = 'grad'
