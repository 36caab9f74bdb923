"""Found by son.fuzz (seed=2029 index=8685): numba refused the kernel ("Unsupported
assignment ... Undefined" at ``v16 = v54``).  The structurer knew ``p0`` is true under
``if p0`` and wrote only the true arm of the inner ``p0 and True``, so the phi it feeds
was assigned the literal ``True`` and tested; numba's DeadBranchPrune pruned that test,
which cut the inner loop's back edge, pruned the loop test that then had a constant
operand, and left ``v54`` read after the loop with no definition.  Fixed by compiling
kernels with ``son.exec.numba_ext.KernelPipeline`` (numba's pipeline without
DeadBranchPrune)."""

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
