"""Found by son.fuzz (seed=6125 index=1210): the peephole pass crashed on the raw parse
(AttributeError: 'NoneType' object has no attribute 'pop').  region_dead_input dropped
the dead predecessor's value from each Phi of the Region in turn; dropping one Phi's
value can leave another Phi of the same Region without users, which is killed at once
(its inputs become None), and the loop then removed an input of the dead Phi.  Fixed in
son/peephole/rules.py: region_dead_input skips a Phi killed meanwhile, as _drop_phis
does.  The same code on the original main crashes too."""

# ruff: noqa  (a generated program)

import math
import numpy as np
import numpy.typing as npt

def f(x0: float, n1: int, n2: int, x1: float, n0: int):
    fuel = 0
    for i1 in range(0):
        fuel += 1
        if fuel > 40:
            break
        if True:
            v2, v0 = (0, 0)
            continue
        else:
            continue
            v2 += 0

ARGS = [(-9.99, 7, 7, 5.224, 9223372036854775807, ), (-0.972, 7, 7, 2.305, -9, ), (math.nan, 19, 3, 2.5, 4, ), (1e+16, -9223372036854775808, -9223372036854775807, 6.689, -7, )]
