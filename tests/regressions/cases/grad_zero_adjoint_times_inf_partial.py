"""Found by son.fuzz (seed=777 index=102): son.grad was nan where son.jvp and finite
differences give 0.0.  ``u1 = x0 * math.inf`` is not returned on this path, so its
adjoint is 0.0, and ``inf * 0.0`` is nan.  Fixed in son/grad/rules.py (``product``) and
son/nodes/arith.py: partials times adjoints are ``ZMul``, a strong zero."""

# ruff: noqa  (a generated program)

import math
import numpy as np
import numpy.typing as npt

def f(n0: int, x0: float):
    fuel = 0
    u1 = x0 * math.inf
    if n0 > 2:
        return u1
    u1 = 0 > u1
    return 0.0 + u1

ARGS = [(2, -1.7, )]
ORACLE = 'grad'
