"""Found by son.fuzz (seed=43125 index=6605): the kernel's math.hypot(5.76, 2.4) was one
ulp below CPython 3.11's.  The kernel's helper followed CPython 3.12's vector_norm (an
exact product and its low part), and 3.10/3.11 sum each square in three parts (hi*hi,
2*hi*lo, lo*lo): the helper (son/exec/emit.py ``_HYPOT``) and pylib's n-argument
``hypot_n`` now follow the running CPython's version (3.12 also scales a subnormal
largest value by 1/DBL_MIN first, where 3.11 divides by it)."""

# ruff: noqa  (a generated program)

import math


def f(x0: float):
    b1 = x0 * x0
    b1 = math.hypot(b1, x0)
    return b1 + math.hypot(x0 * 1e-309, 3e-310, x0)

ARGS = [(-2.4,), (-6.165,), (3.0,), (1e-300,)]
