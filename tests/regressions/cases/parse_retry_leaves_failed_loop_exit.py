"""Found by son.fuzz (seed=2602 index=4953): the interpreter failed on the parsed graph
("crash in parsed: interpreter: If has no projection for the side taken").  The while
loop's first parse assumed v0 an int and failed (3 - n0 with n0 of unknown kind); the
retry removed the exits that attempt had hooked to Stop by count, but meanwhile the
peephole had dropped an earlier exit (a raise of the first inlined h0, unreachable), so
one exit of the failed attempt stayed and kept its dead loop reachable from Start.
Fixed in the parser: the exits before the loop are remembered by identity."""

# ruff: noqa  (a generated program)

import math
import numpy as np
import numpy.typing as npt

def h0(q0, q1):
    fuel = 0
    for i1 in range(1, min(-1, 5)):
        fuel += 1
        if fuel > 40:
            break
        return min(i1, 4) % i1
    return 0

def f(n0, b0: npt.NDArray[np.int64]):
    fuel = 0
    v1 = 1
    v2 = h0(-1.5, v1)
    while b0[n0 % len(b0)] != h0(0.5, v2):
        fuel += 1
        if fuel > 40:
            break
        v0 = 3 - n0

ARGS = [(10, np.array([-4], dtype=np.int64), )]
