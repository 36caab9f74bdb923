"""Found by son.fuzz (seed=20261123 index=365, the fixed campaign), the stage 'calls'
(helpers kept as calls): ``h0`` raises on its first statement (``math.trunc(math.nan)``),
so its graph has no live Return and the kept call was typed an int, which the caller's
``v0, v2 = h0(...)`` could not unpack: the parse refused a program CPython runs.
Fixed: a call kept only because ``inline=False`` asks for it is inlined where the callee
never returns (``separate_call(only_kept=True)``, son/frontend/recursion.py), and a
value of code that cannot run (TOP) unpacks into as many such values
(son/frontend/tuples.py ``unpack``), which the default parse needed too.  Not a wrong
answer: a refusal."""

# ruff: noqa  (a generated program)

import math


def h0(q0, q1):
    if (math.trunc(1e-320) > math.trunc(math.nan)):
        return (q0, q1)
    return (q1, q0)


def f(n0: int, x1: float):
    v0 = int(x1)
    v2 = 1
    if n0 > 3:
        v0, v2 = h0(n0, 8)
    return v0 + v2

ARGS = [(11, 0.5), (2, -7.04), (-9223372036854775808, 1e+308)]
