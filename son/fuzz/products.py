"""son's documented matrix products as the oracle computes them (docs/decisions.md,
son/frontend/linalg.py): numpy's result, except that a float product whose elements
have two terms or more adds them in index order from 0.0 where numpy calls BLAS,
whose order depends on the machine.  An element of one term is numpy's itself (every
order agrees, and np.dot's rules for one-element operands are numpy's).  O(n*k*m)."""

from __future__ import annotations

import numpy as np

_FUNCTIONS = {"matmul": np.matmul, "dot": np.dot, "inner": np.inner, "vdot": np.vdot}


def documented_product(name: str, a, b):
    """``np.<name>(a, b)`` (``a @ b`` is "matmul") as son computes it."""
    result = _FUNCTIONS[name](a, b)  # numpy's shape, dtype and errors
    x, y = np.asarray(a), np.asarray(b)
    if np.asarray(result).dtype != np.float64 or not (1 <= x.ndim <= 2 and 1 <= y.ndim <= 2):
        return result
    rows = x if x.ndim == 2 else x[None, :]
    cols = y if y.ndim == 2 else y[:, None]
    if rows.shape[1] <= 1:
        return result
    rows, cols = rows.astype(np.float64), cols.astype(np.float64)
    out = np.zeros((rows.shape[0], cols.shape[1]))
    with np.errstate(all="ignore"):
        for k in range(rows.shape[1]):
            out = out + rows[:, k:k + 1] * cols[k:k + 1, :]
    if np.ndim(result) == 0:
        return np.float64(out[0, 0])
    return out.reshape(np.shape(result))
