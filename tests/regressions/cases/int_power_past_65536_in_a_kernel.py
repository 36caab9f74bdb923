"""Found by probing son.jit with programs written by hand (not by son.fuzz): an int to
an int power above 65536 was wrong in kernels, where numba's ``int ** int`` switches to
a float ``pow`` and casts back: ``(-1) ** (2**53 + 1)`` was 1 where CPython gives -1,
and ``3 ** 65537`` was INT64_MIN where son's interpreter (and CPython, modulo 2**64)
gives 917085678152187907: a silent wrong answer.  Fixed in son/exec/emit.py (``_pow``:
the helper ``_int_pow`` squares in int64 unless the exponent is a constant numba
squares itself); the fuzz generator's int powers now sometimes take any non-negative
exponent (son/fuzz/generator.py)."""

# ruff: noqa  (a hand-written program)

import math
import numpy as np


def f(a: int, b: int):
    return a ** b + (a - 1) ** 70001 + a ** (b & 262143)

ARGS = [(-1, 2**53 + 1), (3, 65537), (2, 3), (-3, 70001), (7, 0), (0, 2**62), (5, 2**62 + 3)]
