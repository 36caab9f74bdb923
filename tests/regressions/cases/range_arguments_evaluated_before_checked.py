"""Found by son.fuzz (seed=20261123 index=23, the in-suite campaign after the generator
grew): ``range(o0, round(math.nan))`` with ``o0`` None raised TypeError in the raw parse,
where CPython first evaluates every argument (``round(nan)``: ValueError) and only then
checks their types.  ``range``'s bounds are now all evaluated before each is checked as
an int (son/frontend/loops.py ``range_bounds``)."""

# ruff: noqa  (a generated program)

import math


def f(n1: int, x1: float):
    fuel = 0
    o0 = None
    s = 0
    if n1 > 3:
        o0 = n1
    for i1 in range(o0, round(x1 * math.nan) if n1 < 0 else 5):
        fuel += 1
        s += i1
        if fuel > 40:
            break
    return s

ARGS = [(0, 0.0), (-1, 1.0), (4, 2.0), (-2, 0.5)]
