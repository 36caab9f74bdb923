"""Found by son.fuzz (seed=6125 index=3151): the kernel was one ulp off CPython
(0x1.2be2fb32c4c8fp+11 for 0x1.2be2fb32c4c90p+11).  CPython computes ``acc2 ** 2`` of a
float with the C library's ``pow``, which glibc does not always round correctly; numba
emitted ``pow(x, 2.0)``, which LLVM rewrites as ``x * x``.  Fixed in son/exec/emit.py
(``_float_pow``): a constant operand of a float ``**`` goes through ``opaque``
(son/exec/numba_ext.py), an empty inline-asm statement LLVM cannot see into."""

# ruff: noqa  (a generated program)

import math
import numpy as np
import numpy.typing as npt

def f(n0: int, x1: float, x2: float, x0: float):
    fuel = 0
    acc2 = 3
    i3 = 0
    while i3 < 3:
        i3 += 1
        acc2 = acc2 ** 2 + x2
        acc2 *= x2
    return acc2

ARGS = [(0, 0.0, 0.821, 0.0, )]
