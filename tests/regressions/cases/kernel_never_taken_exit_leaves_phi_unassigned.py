"""Found by son.fuzz (seed=2027 index=6014): numba refused the kernel ("Unsupported
assignment ... Undefined").  Inside ``if p0:`` the test of ``while p0:`` is decided, so the
structurer writes no branch to the loop's normal exit; that exit stayed a member of the
level after the loop, guarded by a selector value no branch sets, and the Phi it assigns
looked possibly undefined to numba where it is read.  Fixed in son/exec/structure.py
``Structurer._phi_inits``: a level with a guarded member that no written branch targets
starts by giving its members' Phis placeholder values."""

# ruff: noqa  (a generated program)

import math
import numpy as np
import numpy.typing as npt

def f(n0: int, p0: bool):
    fuel = 0
    v2 = 0
    if p0:
        while p0:
            fuel += 1
            if fuel > 40:
                break
        for i3 in range(1 if p0 else c0, v2, -2):
            fuel += 1
            if fuel > 40:
                break
            while True:
                fuel += 1
                if fuel > 40:
                    break
                t4 = t4 + i3
                if t4 != t5 + i3:
                    n0 = -4
                t5 = t5 + i3
    else:
        pass

ARGS = [(-9223372036854775807, False, ), (2147483648, False, ), (-8, True, ), (-4, True, )]
