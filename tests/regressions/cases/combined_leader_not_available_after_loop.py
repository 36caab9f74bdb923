"""Found by son.fuzz (seed=2028 index=2630): the combined pass made a graph the scheduler
refused ("the inputs of bool(...) do not dominate its uses").  ``v0`` is never changed
in the inner loop, so its Phi there is congruent to its value before the loops, and
``if v0`` after the outer loop is congruent to the ``not v0`` test inside the inner loop:
the leader ``bool(phi)`` has no control input but its input is the inner loop's Phi, so
it is not available after the loops (the inner loop may never run).  Fixed in
son/sccp/rewrite.py ``_merge_congruent``: a floating leader replaces a node only if its
early block (as Global Code Motion computes it) dominates the node's."""

# ruff: noqa  (a generated program)

import math
import numpy as np
import numpy.typing as npt

def f(x1: float, n1: int, n0: int, n2: int, x0: float):
    fuel = 0
    v0 = n2
    t2 = 1
    for i3 in range(0, int(v1 if False else t2), 2):
        fuel += 1
        if fuel > 40:
            break
        t4 = 0 + -1
        t5 = 0 + -1
        while not v0:
            fuel += 1
            if fuel > 40:
                break
            t4 = t4 + int(3.0)
            if t4 != t5 + int(3.0):
                v0 = n1 == 1 < t2
            t5 = t5 + int(3.0)
    if v0:
        pass
    else:
        v2 = x0 if True else math.pi

ARGS = [(9.987, 2, 2, 0, -1e+308, ), (-9.186, 2147483648, 1, 4611686018427387904, 1e+308, ), (-0.0, -10, -9223372036854775808, 4611686018427387904, -1.0, ), (5.575, 4611686018427387904, -1, 2, math.inf, ), (-1.157, 2, 3, 100, 0.5, )]
