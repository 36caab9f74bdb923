"""Found by son.fuzz (seed=1 index=12): the kernel crashed the process (segmentation fault).
Code generation fuses consecutive guards into one test ``if c1 | c2: ...``, evaluating c2
before c1 has been checked; here c2 (``b0[n1] == 0``, the divisor's zero check) reads the
array at the index c1 (the bounds check) rejects.  Fixed in son/exec/structure.py
``Structurer._guard_chain``: a guard whose block reads memory ends the chain."""

import numpy as np
import numpy.typing as npt


def f(b0: npt.NDArray[np.int64], n1: int, n0: int):
    v0 = -13 // b0[n1]
    return v0 % n0


ARGS = [(np.array([1, 2, 3], dtype=np.int64), 1 << 40, 5), (np.array([4, 0], dtype=np.int64), 1, 3),
        (np.array([4, 0], dtype=np.int64), -2, 0), (np.array([], dtype=np.int64), 0, 1),
        (np.array([7], dtype=np.int64), -1, 2)]
