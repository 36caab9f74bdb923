"""Found by son.fuzz (seed=2411 index=4807): numba refused the kernel ("NameError:
name 'v22' is not defined").  Under ``else:`` the structurer knows ``p0`` is false, so
the ``while p0:`` body is never written; the loop's exit through ``break`` (``fuel >
40``) was still written after the loop as a selector-guarded member, ``if _s2 == 1:
v33 = v22``, reading a value of the unwritten body.  Numba used to prune that test
(``_s2`` is the constant -1) but kernels now compile without DeadBranchPrune (see
kernel_pruned_loop_leaves_value_undefined).  Fixed in the code generator: a guarded
member that no written branch goes to is not written."""

# ruff: noqa  (a generated program)

import math
import numpy as np
import numpy.typing as npt

def f(x1: float, x0: float, p0: bool):
    fuel = 0
    if p0:
        pass
    else:
        while p0:
            fuel += 1
            if fuel > 40:
                break
    for i3 in range(5):
        fuel += 1
        if fuel > 40:
            break

ARGS = [(2.206, -1.0, False, ), (0.0, -0.583, False, ), (1.0, -5.194, False, )]
