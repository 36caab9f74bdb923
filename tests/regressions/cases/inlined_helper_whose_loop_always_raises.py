"""Found by son.fuzz (seed=781 index=50), the stage 'inlined' (helpers kept as calls, then
the inline pass): ``h0``'s loop always raises UnboundLocalError on its first trip, so
the peephole over the inlined copy cut the loop's back edge and left nodes attached to
nothing that reaches Stop; the verifier refused the graph.  Fixed: the inline pass
removes what the peephole cut off (``graph.dce()`` after inlining,
son/peephole/inline.py).  Not a wrong answer: a crash of the new pass."""

# ruff: noqa  (a generated program)

import cmath
import functools
import math
import operator
import numpy as np
import numpy.typing as npt

def h0(q0, q1, q2):
    fuel = 0
    while 1:
        fuel += 1
        if fuel > 40:
            break
        if t2:
            w1 = q2
        t2 = t2 + 2
    return (0, q1)

def f(x0: float, x1: float, n0: int, a0: np.ndarray, b0: npt.NDArray[np.int64]):
    fuel = 0
    v1 = 0
    o0 = None
    q0 = (-4 < x1, len(b0))
    x1, v1 = h0(q0[0] if q0 is not None else True, o0 if o0 is not None else n0, b0[v1 % len(b0)])

ARGS = [(0.0, 5.763, 9, np.array([], dtype=np.float64), np.array([-8], dtype=np.int64), ), (7.873, 1e+16, 7, np.array([0.17, -1e+308, 0.5, -2.0, -3.65, 0.5, 1.0, -4.26], dtype=np.float64), np.array([2147483648, 4, -9223372036854775808, 4611686018427387904, -9], dtype=np.int64), ), (4.736, 0.0, -1, np.array([0.03], dtype=np.float64), np.array([5, 6, 3, 2147483648, 5, 9, 4, 5], dtype=np.int64), )]
