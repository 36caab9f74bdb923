"""Found by son.fuzz (seed=2027 index=6014): crash in kernel: SonError: numba could not compile the kernel son generated for f: UnsupportedError: Unsupported assignment encountered: <class 'numba.core.ir.UndefinedType'> Undefined; def f(n0, p0):; <source elided>; # B10. This is a bug in son's code generator: the generated source is in /tmp/son-fuzz-lcc9rle7/worker-6k930f0j/son_f_1fd1f2da1a383a59ea83.py (and in this error's .source); please report it with that file"""

# ruff: noqa  (a generated program)

import math
import numpy as np
import numpy.typing as npt

def f(n0: int, p0: bool):
    fuel = 0
    v2 = 0
    if p0:
        while p0:
            fuel += 1
            if fuel > 40:
                break
        for i3 in range(1 if p0 else c0, v2, -2):
            fuel += 1
            if fuel > 40:
                break
            while True:
                fuel += 1
                if fuel > 40:
                    break
                t4 = t4 + i3
                if t4 != t5 + i3:
                    n0 = -4
                t5 = t5 + i3
    else:
        pass

ARGS = [(-9223372036854775807, False, ), (2147483648, False, ), (-8, True, ), (-4, True, )]
