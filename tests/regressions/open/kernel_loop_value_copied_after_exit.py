"""Found by son.fuzz (seed=2029 index=8685), NOT FIXED YET (tests/regressions/open is not
run by the tests): numba refuses the kernel ("Unsupported assignment ... Undefined").  A
value defined inside a loop body (``v43 = v36 + 1`` in the inner ``while n0`` loop) is
copied by the phi move of a loop exit written after the loop (``if _s3 == 1: v54 = v43``);
numba cannot see that the selector value 1 implies ``v43`` was assigned, and refuses to
copy a possibly undefined variable.  Fix idea: give such values a placeholder before the
loop, as ``_Codegen._phi_inits`` does for the Phis of levels with unreached members."""

# ruff: noqa  (a generated program)

import math
import numpy as np
import numpy.typing as npt

def f(p0: bool, x0: float, n1: int, n0: int, x1: float):
    fuel = 0
    while p0:
        fuel += 1
        if fuel > 40:
            break
        while n0:
            fuel += 1
            if fuel > 40:
                break
        for i3 in range(3, 1, -2):
            if p0 and True:
                return min(x0 if p0 else x1, -math.inf * x0)
    return True

ARGS = [(False, -7.587, -14, 4611686018427387904, 1e+308, ), (True, 5.868, 100, 9223372036854775807, 0.0, ), (True, 0.0, 16, 0, 5e-324, ), (False, -7.575, -8, -1, 1e+16, )]
