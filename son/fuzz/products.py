"""son's documented matrix products as the oracle computes them (docs/decisions.md,
son/frontend/linalg.py): numpy's result, except that a float product whose elements
have two terms or more adds them in index order from 0.0 where numpy calls BLAS,
whose order depends on the machine.  An element of one term is numpy's itself (every
order agrees, and np.dot's rules for one-element operands are numpy's).  O(n*k*m)."""

from __future__ import annotations

import numpy as np

from son.frontend.einsum import labels

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


def documented_einsum(subscripts: str, *operands):
    """``np.einsum(subscripts, *operands)`` as son computes it (son/frontend/einsum.py):
    numpy's result where it is one operand's view, or an int or bool; else each float
    element summed over the summed labels, nested in the order they first appear, from
    0.0, of the operands' product left to right.  O(product of the labels' lengths)."""
    result = np.einsum(subscripts, *operands)  # numpy's shape, dtype and errors
    if np.asarray(result).dtype != np.float64:
        return result
    ins, out = labels(subscripts)
    order = "".join(dict.fromkeys("".join(ins)))  # the labels in order of first appearance
    if len(operands) == 1 and sorted(out) == sorted(dict.fromkeys(ins[0])):
        return result  # a view of the operand
    sizes = {}
    for s, a in zip(ins, operands):
        for c, n in zip(s, np.shape(a)):
            if sizes.get(c, 1) == 1:
                sizes[c] = n
    summed = [c for c in order if c not in out]
    arrays = [np.asarray(a, dtype=np.float64) for a in operands]
    res = np.zeros([sizes[c] for c in out])
    with np.errstate(all="ignore"):
        for idx in np.ndindex(*[sizes[c] for c in out]):
            at = dict(zip(out, idx))
            total = 0.0
            for more in np.ndindex(*[sizes[c] for c in summed]):
                at.update(zip(summed, more))
                term = None
                for s, a in zip(ins, arrays):
                    v = a[tuple(at[c] if a.shape[k] != 1 else 0 for k, c in enumerate(s))]
                    term = v if term is None else term * v
                total = total + term
            res[idx] = total
    return np.float64(res[()]) if not out else res
