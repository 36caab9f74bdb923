"""Found by probing son.jit with programs written by hand (not by son.fuzz): a fallback
region (a ``try`` statement, which son runs with CPython) left by a ``continue`` or a
``break`` of the loop around it gave the loop placeholder zeros for the variables it
had changed, so ``f(4)`` was 15 where CPython gives 5 and ``g(4)`` was 0 instead of -15:
a silent wrong answer.  run_region took live-outs only from a region that went on or
returned.  Fixed in son/frontend/regions.py (a ``break``/``continue`` returns the
region's locals) and son/nodes/opaque.py (run_region takes the live-outs from them);
the fuzz generator's ``try`` regions in loops now sometimes bump a count and leave the
round from the handler (son/fuzz/fallbackgen.py)."""

# ruff: noqa  (a hand-written program)

import math
import numpy as np

SON_FALLBACK = "region"


def f(n: int, x: float):
    s = 0
    t = 0.0
    for i in range(n):
        try:
            s += 10 // (i - 1)
            t = t + x
            s += 10 // (i - 2)
        except ZeroDivisionError:
            if i > 1:
                break
            continue
        s += 1
    return s * 1000 + t

ARGS = [(4, 0.5), (2, 1.5), (3, -2.0), (0, 1.0), (6, 0.25)]
