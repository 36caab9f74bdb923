"""Linear systems: ``np.linalg.solve``, ``np.linalg.inv`` and ``np.linalg.det`` of
square 2-D float (or int) arrays, by LU factorization with partial pivoting, as
LAPACK's ``dgetrf``/``dgetrs`` (numpy's ``gesv``) compute them, written in the Python
son compiles and inlined, so the scheduler, kernels and both derivative modes take
them as loops.

- ``solve(a, b)``: ``b`` a 1-D array (the result 1-D) or a 2-D one (one column each);
  ``inv(a)`` is ``solve(a, identity)``; both raise numpy's ``LinAlgError("Singular
  matrix")`` where a pivot is exactly zero.
- ``det(a)``: numpy's formula, ``sign * exp(sum(log|u_ii|))`` over U's diagonal (the
  sign from the row swaps and the pivots' signs), 0.0 for a zero pivot.
- A non-square ``a`` is numpy's ``LinAlgError``; a ``b`` whose rows differ from ``a``'s
  is numpy's ``ValueError``.

The factorization is LAPACK's algorithm, not its order of operations: LAPACK
(OpenBLAS's ``getrf``) blocks and recurses by the machine's kernels, so a float result
may differ from numpy's in its last bits (docs/decisions.md), as float matrix products
do.  Refused with a located error: operands of other dimensions, complex arrays,
keywords.  O(n^3) time (``solve`` with k columns: O(n^3 + n^2 k)), O(1) nodes per call
plus the inlined loops.
"""

from __future__ import annotations

import ast

import numpy as np

from ..nodes import Node, kept
from .core import dtype_of, is_array_value
from .scope import Grid


class Solvers:
    """FunctionParser's ``np.linalg.solve``/``inv``/``det`` (a mixin)."""

    def call_solver(self, e: ast.Call, name: str, which: str) -> Node:
        want = 2 if which == "solve" else 1
        if len(e.args) != want or e.keywords:
            raise self.error(e, f"{name}() takes {want} array(s) (son reads no keywords)", name)
        vals = self.exprs(e.args)
        with kept(*vals):
            for v, at in zip(vals, e.args):
                if not (isinstance(v, Grid) or is_array_value(v)) or \
                        dtype_of(v.base if isinstance(v, Grid) else v) not in ("float64", "int64"):
                    raise self.unsupported(at, f"{name}() of {v.type.widen()} (son takes float64 or int64 "
                                               "arrays here)")
            a = vals[0]
            if not isinstance(a, Grid) or a.ndim != 2:
                ndim = a.ndim if isinstance(a, Grid) else 1
                raise self.unsupported(e.args[0], f"{name}() of a {ndim}-D array (son takes one 2-D matrix)")
            if which == "det":
                return self.inline(e, det, [a])
            if which == "inv":
                return self.inline(e, inv, [a])
            b = vals[1]
            if isinstance(b, Grid) and b.ndim != 2:
                raise self.unsupported(e.args[1], f"{name}() of a {b.ndim}-D right-hand side")
            return self.inline(e, solve_matrix if isinstance(b, Grid) else solve_vector, [a, b])


# ---------------------------------------------------------------- inlined (son's Python)
def lu_factor(a):
    """A copy of ``a`` (as floats) overwritten by its LU factors (L unit lower, below the
    diagonal), and the row each step swapped in; the first zero pivot's step + 1, or 0
    (LAPACK's ``info``: the factorization goes on past it)."""
    n = a.shape[0]
    if a.shape[1] != n:
        raise np.linalg.LinAlgError("Last 2 dimensions of the array must be square")
    lu = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            lu[i, j] = float(a[i, j])
    piv = np.empty(n, dtype=np.int64)
    info = 0
    for k in range(n):
        p = k
        big = abs(lu[k, k])
        for i in range(k + 1, n):
            v = abs(lu[i, k])
            if v > big:
                big = v
                p = i
        piv[k] = p
        if p != k:
            for j in range(n):
                t = lu[k, j]
                lu[k, j] = lu[p, j]
                lu[p, j] = t
        if lu[k, k] == 0.0:
            if info == 0:
                info = k + 1
            continue
        if abs(lu[k, k]) >= 2.2250738585072014e-308:  # LAPACK's sfmin: a reciprocal would overflow
            r = 1.0 / lu[k, k]
            for i in range(k + 1, n):
                lu[i, k] = lu[i, k] * r
        else:
            for i in range(k + 1, n):
                lu[i, k] = lu[i, k] / lu[k, k]
        for i in range(k + 1, n):
            f = lu[i, k]
            for j in range(k + 1, n):
                lu[i, j] = lu[i, j] - f * lu[k, j]
    return lu, piv, info


def lu_solve_into(lu, piv, x):
    """Solve ``LU x = P b`` for each column of ``x`` (``b``), in place (dgetrs)."""
    n = lu.shape[0]
    m = x.shape[1]
    for k in range(n):
        p = piv[k]
        if p != k:
            for j in range(m):
                t = x[k, j]
                x[k, j] = x[p, j]
                x[p, j] = t
    for j in range(m):
        for i in range(n):
            s = x[i, j]
            for t in range(i):
                s = s - lu[i, t] * x[t, j]
            x[i, j] = s
        for i in range(n - 1, -1, -1):
            s = x[i, j]
            for t in range(i + 1, n):
                s = s - lu[i, t] * x[t, j]
            x[i, j] = s / lu[i, i]


def _factored(a):
    lu, piv, info = lu_factor(a)
    if info:
        raise np.linalg.LinAlgError("Singular matrix")
    return lu, piv


def solve_matrix(a, b):
    lu, piv = _factored(a)
    n = lu.shape[0]
    if b.shape[0] != n:
        raise ValueError("solve: Input operand 1 has a mismatch in its core dimension 0")
    x = np.empty((n, b.shape[1]))
    for i in range(n):
        for j in range(b.shape[1]):
            x[i, j] = float(b[i, j])
    lu_solve_into(lu, piv, x)
    return x


def solve_vector(a, b):
    lu, piv = _factored(a)
    n = lu.shape[0]
    if len(b) != n:
        raise ValueError("solve1: Input operand 1 has a mismatch in its core dimension 0")
    x = np.empty((n, 1))
    for i in range(n):
        x[i, 0] = float(b[i])
    lu_solve_into(lu, piv, x)
    out = np.empty(n)
    for i in range(n):
        out[i] = x[i, 0]
    return out


def inv(a):
    lu, piv = _factored(a)
    n = lu.shape[0]
    x = np.zeros((n, n))
    for i in range(n):
        x[i, i] = 1.0
    lu_solve_into(lu, piv, x)
    return x


def det(a):
    """numpy's ``det``: from ``slogdet``, ``sign * exp(logdet)``; 0.0 for a zero pivot."""
    lu, piv, info = lu_factor(a)
    if info:
        return 0.0
    n = lu.shape[0]
    sign = 1.0
    logdet = 0.0
    for k in range(n):
        if piv[k] != k:
            sign = -sign
        u = lu[k, k]
        if u < 0.0:
            sign = -sign
        logdet = logdet + np.log(abs(u))
    return sign * np.exp(logdet)


SOLVER_CALLS = {
    np.linalg.solve: lambda p, e, n: p.call_solver(e, n, "solve"),
    np.linalg.inv: lambda p, e, n: p.call_solver(e, n, "inv"),
    np.linalg.det: lambda p, e, n: p.call_solver(e, n, "det"),
}
