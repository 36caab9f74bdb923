"""Found by son.fuzz (seed=912 index=6, the first campaign with 2-D arrays): crash in the
parse (TypeError: 'NoneType' object is not subscriptable): a chain broadcast twice,
``(m0.reshape(-1, 1) + m0[:1]) + b0``, read its inner operand with the index of each
axis scaled by a stretch factor, and the scaled index of one axis was not kept while
the next one was made, so the peephole could kill it (son/frontend/ufuncs.py
``broadcast``: each scaled index is kept until the element is read)."""

# ruff: noqa  (a reduced generated program)

import numpy as np
import numpy.typing as npt


def f(b0: npt.NDArray[np.int64]):
    m0 = np.ones(int(12) % 7)
    r0 = (m0 * 1.0)
    r1 = ((((m0).reshape(-1, 1) + r0[:1]) + np.outer(m0[::-1], np.sqrt(b0))) @ np.sqrt((b0[::-1] / 2)))
    r2 = (m0.reshape(-1, 1) + m0[:1]) + b0
    return r1, r2

ARGS = [(np.arange(3),), (np.array([], dtype=np.int64),), (np.array([4, -1, 9, 16, 0, 2], dtype=np.int64),)]
