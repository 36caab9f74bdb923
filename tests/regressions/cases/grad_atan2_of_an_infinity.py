"""Found by son.fuzz (seed=10125 index=15436): son.grad gave nan where son.jvp and finite
differences give 0.0.  atan2's partial -y / (x*x + y*y) is inf / inf = nan at y = inf,
where its limit is 0; the forward tangent of x0 / x0 is exactly 0 (a strong zero), the
reverse adjoints are that nan times non-zero partials.  The partials are now written
-1 / (y + x * (x / y)) and 1 / (x + y * (y / x)) (son/grad/rules.py), which give the
limits at infinite and zero operands and do not over- or underflow in a square."""

# ruff: noqa  (a generated program)

import math
import numpy as np
import numpy.typing as npt

def f(x0: float, p0: bool):
    fuel = 0
    v0 = x0
    return math.atan2(math.inf, v0 / v0) + math.atan2(v0 * 1e-300, 1e-300) + math.atan2(2.0, v0 * math.inf)

ARGS = [(1.5, False, ), (-0.25, True, )]
ORACLE = 'grad'
