"""Found by probing son.jit with programs written by hand (not by son.fuzz): a fallback
region (a ``try`` statement, run by CPython) left by a ``continue`` or ``break`` of the
loop around it lost what its ``finally`` assigned on the way out, so ``f(3)`` was 0
where CPython gives 3: a silent wrong answer.  The region's jump was a
``return (3, locals())``, which reads the locals before the ``finally`` runs.  Fixed
in son/frontend/regions.py (``_leave_with_status``: the jump sets a status and breaks
out of a one-round loop around the region's code, and the locals are read after it);
the fuzz generator's ``try`` regions in loops that leave the round now sometimes have
a ``finally`` that changes a variable (son/fuzz/fallbackgen.py)."""

# ruff: noqa  (a hand-written program)

import math
import numpy as np

SON_FALLBACK = "region"


def f(n: int, x: float):
    c = 0
    s = 0.0
    for i in range(n):
        try:
            if i == 1:
                s = s + 10.0 // (i - 1)
            if i > 3:
                break
            continue
        except ZeroDivisionError:
            s = s + x
            continue
        finally:
            c = c * 2 + 1
        s = s - 1000.0
    return c * 1000 + s

ARGS = [(3, 0.5), (6, 1.5), (0, 1.0), (1, -2.0), (5, 0.25)]
