"""Found by son.fuzz (seed=2026 index=2040 and 2090): Numba could not compile the kernel
(``and_(float64, int64)``, ``setitem(array, float64, ...)``).  Code generation writes
``a // b`` as ``(a // b if b != -1 else -a)`` (son wraps ``INT64_MIN // -1``); with ``a``
the literal ``(-9223372036854775807 - 1)``, CPython's constant folder turned ``-a`` into
2**63, which Numba types as a float, and the whole expression became a float.  Fixed in
son/exec/emit.py ``_floordiv``: the wrapped negation of INT64_MIN is itself."""

import numpy as np
import numpy.typing as npt


def f(b0: npt.NDArray[np.int64], x1: float, n: int):
    v0 = (-9223372036854775807 - 1) // len(b0)
    w = (-9223372036854775807 - 1) // n
    b0[v0 & 1] = w
    return (4 << (v0 & 63)) + int(x1) + w


ARGS = [(np.array([1, 2, 3], dtype=np.int64), 1.5, -1), (np.array([], dtype=np.int64), 0.0, 2),
        (np.array([5, 6], dtype=np.int64), -2.5, 7), (np.array([9], dtype=np.int64), 3.0, 0)]
