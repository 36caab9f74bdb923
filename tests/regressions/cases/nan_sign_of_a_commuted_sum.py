"""Found by son.fuzz (seed=28125 index=10597): the raw parse failed verification,
``type nan is more precise than compute() = nan`` on an Add of two NaNs of opposite
signs.  x86 gives the first operand's NaN, so the sum's constant changed with its
operand order; ``Add``/``Mul.eval`` now give a NaN made from two NaNs a sign that does
not depend on the order (son/nodes/arith.py ``_either_order``; a NaN's sign is
unspecified, docs/decisions.md)."""

# ruff: noqa  (a generated program)

import math


def f(n0: int):
    v0 = -math.inf
    z0 = ((v0 * 1j) ** v0)
    z0 += z0
    return z0.real + n0

ARGS = [(1,), (-3,)]
