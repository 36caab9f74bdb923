"""Found by son.fuzz (seed=6125 index=4756): the kernel crashed the process (SIGSEGV)
where CPython raises ValueError('negative shift count').  Code generation fuses the
guards of ``t1 >> (-t2)`` and of the ``%`` by its result into one test,
``(s < 0) | ((t1 >> s) == 0)``, which computes the shift before its count is known to
be non-negative; ``_shr`` clamped only counts above 63, and a negative count is
undefined behaviour in LLVM.  Fixed in son/exec/emit.py: ``_shr`` and ``_shl`` give a
defined value for every count.  The original main crashes too."""

# ruff: noqa  (a generated program)

import math

import numpy as np
import numpy.typing as npt


def h0(q0):
    w0 = q0
    fuel = 0
    w0 = (-q0)
    return 12


def f(x0: float, x1: float, p0: bool):
    fuel = 0
    v0 = ((x1 if p0 else x0) / (9223372036854775807 / 3.0))
    v0 = -0.0
    t1 = math.floor(2.5)
    t2 = math.floor(2.5)
    while (True or p0):
        fuel += 1
        if fuel > 40:
            break
        t1 = t1 + 2
        if t1 != t2 + 2:
            v0 = (0.1 // v0)
        t2 = t2 + 2
    v0 = ((0.1 if (p0 and p0) else math.asin(1.0)) % (t1 >> (-t2)))
    if ((-2) > (t1 >> (t1 & 63))):
        return (t2 < x1)
    v0 = (x1 * x0)
    v0 = ((v0 - x1) + float(t2))
    v0 = 0.0
    v0 = x1
    t3 = t1
    t4 = t1
    while p0:
        fuel += 1
        if fuel > 40:
            break
        t3 = t3 + 2
        if t3 != t4 + 2:
            v0 = x1
        t4 = t4 + 2
    v0 = (t4 / ((t3 - -5) // t3))
    v0 = math.log(v0)
    if bool(abs(t1)):
        pass
    elif bool((t2 // t4)):
        pass
    elif (not False):
        pass
    return p0

ARGS = [(0.0, 5.536, True, ), (0.0, -2.317, True, ), (-1e+308, 1e+16, True, ), (0.533, 1.0, True, )]
