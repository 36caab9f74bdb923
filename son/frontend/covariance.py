"""``np.cov(m, y=None, rowvar=True, bias=False, ddof=None)`` and ``np.corrcoef(x, y=None,
rowvar=True)`` of 1-D and 2-D arrays (float64, int64, bool), in the order of operations
of numpy's ``numpy/lib/_function_base_impl.py``.

numpy's steps: ``X`` is a float64 copy of ``m`` as a 2-D array with the variables along
axis 0 (``m.T`` for ``rowvar=False``), ``y``'s the same (not transposed where it has one
row), joined below it (``np.concatenate``'s ValueError where the observations differ in
number; none when ``m`` has no variable: the result is then ``(0, 0)``); ``avg`` the mean
of each row; ``fact = N - ddof`` (``ddof`` 1, or 0 with ``bias``), 0.0 where that is not
positive (numpy warns; the result is then inf or NaN); ``X -= avg[:, None]``; ``c =
dot(X, X.T)``; ``c *= 1 / fact``; ``c.squeeze()``.  ``corrcoef`` divides ``c`` by the
square roots of its diagonal, by rows then by columns, and clips it to ``[-1, 1]``.

Bit for bit numpy's, except the product: each mean is numpy's own sum in numpy's order,
which depends on ``X``'s memory layout: a pairwise sum per row where ``X`` is in C
order, the columns added in order where ``np.array``'s copy (order 'K') and
``np.concatenate`` made it Fortran-ordered (a transpose, ``rowvar=False``), decided at run
time from the operands' strides as numpy's ``PyArray_CreateMultiSortedStridePerm`` does.
``dot(X, X.T)`` sums each element in index order where numpy's BLAS may sum in another
(son/frontend/linalg.py), so the last bits may differ.

numpy squeezes the ``(p, p)`` result: of a 1-D ``m`` without ``y`` (one variable) it is a
0-D array, which son returns as a Python float (``corrcoef``'s ``c / c`` of it is numpy's
float already); a 2-D ``m`` found at run time to hold one variable in all is
NotImplementedError (son's result has its rank when it is parsed).  Refused with a
located error: ``fweights=``, ``aweights=``, ``dtype=``, ``rowvar``/``bias`` that are not
constants, an int ``ddof`` that is not an int.  O(1) nodes per call plus the inlined
loops; O(p * p * N) time."""

from __future__ import annotations

import ast

import numpy as np

from ..nodes import Node, kept
from .arraymore import ieee_divide
from .axisreduce import ADD, fold_axis, sum_rows
from .core import _kind, dtype_of
from .scope import Grid


class Covariances:
    """FunctionParser's ``np.cov`` and ``np.corrcoef`` (a mixin)."""

    def call_cov(self, e: ast.Call, name: str, corr: bool) -> Node:
        params = ["x", "y", "rowvar", "dtype"] if corr else \
            ["m", "y", "rowvar", "bias", "ddof", "fweights", "aweights", "dtype"]
        got = self.call_arguments(e, name, params, optional=set(params[1:]))
        for word in ("fweights", "aweights", "dtype"):
            if word in got and not _is_none(got[word]):
                raise self.unsupported(got[word], f"{name}() with {word}= (son computes unweighted float64 "
                                                  "covariances)")
        rowvar = self.constant_flag(got.get("rowvar"), True, name, "rowvar")
        bias = self.constant_flag(got.get("bias"), False, name, "bias")
        has_y = "y" in got and not _is_none(got["y"])
        places = [got[params[0]]] + ([got["y"]] if has_y else [])
        vals = self.product_operands(e, self.operands(places))
        with kept(*vals):
            for v, at in zip(vals, places):
                self.array_piece(at, v, name)
                if isinstance(v, Grid) and v.ndim > 2:
                    which = "m" if v is vals[0] else "y"
                    return self.fault(ValueError, f"{which} has more than 2 dimensions")
            if "ddof" in got and not _is_none(got["ddof"]):
                ddof = self.expr(got["ddof"])
                if _kind(ddof) not in ("int", "bool"):
                    raise self.unsupported(got["ddof"], f"{name}() with a ddof= that is not an int")
            else:
                ddof = self.con(0 if bias else 1)
            with kept(ddof):
                m, y = (self.as_2d(e, v, column=False) for v in (vals + vals)[:2])
                with kept(m, y):
                    scalar = not isinstance(vals[0], Grid) and not has_y
                    args = [m, m.strides[0], m.strides[1], self.con(not rowvar and isinstance(vals[0], Grid)),
                            y, y.strides[0], y.strides[1], self.con(not rowvar), self.con(has_y),
                            self.con(has_y and dtype_of(y.base) != "float64"), ddof, self.con(scalar)]
                    fn = (correlation_scalar if scalar else correlation) if corr else \
                        (covariance_scalar if scalar else covariance)
                    return self.inline_list_helper(e, fn, args)


def _is_none(x: ast.expr) -> bool:
    return isinstance(x, ast.Constant) and x.value is None


COVARIANCE_CALLS = {
    np.cov: lambda p, e, n: p.call_cov(e, n, corr=False),
    np.corrcoef: lambda p, e, n: p.call_cov(e, n, corr=True),
}


# ---------------------------------------------------------------- inlined (son's Python)
def _fortran_vote(s_var, s_obs, copied, transposed, vote, ambiguous):
    """One operand's part in numpy's choice of ``X``'s memory order (``np.concatenate``'s
    stride permutation, C order winning conflicts): where it holds more than one
    variable and observation, Fortran order needs its observations' stride larger.  An
    operand numpy copies first (``np.array(m)``, order 'K') has its copy's strides: its
    own order, ties made C order, before the transpose.  Returns (vote, ambiguous)."""
    if copied:
        later = abs(s_obs) >= abs(s_var) if transposed else abs(s_obs) > abs(s_var)
    else:
        later = abs(s_obs) > abs(s_var)
    if not later:
        return False, False
    return vote or ambiguous, False


def _data(m, ms0, ms1, mt, y, ys0, ys1, yt, has_y, y_copied, scalar):
    """numpy's float64 ``X`` (a new C-order array: variables along axis 0), whether numpy
    holds it in Fortran order, and the number of observations."""
    vm = m.shape[1] if mt else m.shape[0]
    n = m.shape[0] if mt else m.shape[1]
    flip = yt and y.shape[0] != 1
    vy = 0
    if has_y and vm > 0:
        vy = y.shape[1] if flip else y.shape[0]
        ny = y.shape[0] if flip else y.shape[1]
        if ny != n:
            raise ValueError("all the input array dimensions except for the concatenation axis must match "
                             "exactly")
    vote = False
    ambiguous = True
    if vm != 1 and n != 1:
        vote, ambiguous = _fortran_vote(ms1 if mt else ms0, ms0 if mt else ms1, True, mt, vote, ambiguous)
    if has_y and vm > 0 and vy != 1 and n != 1:
        vote, ambiguous = _fortran_vote(ys1 if flip else ys0, ys0 if flip else ys1, y_copied, flip, vote,
                                        ambiguous)
    p = vm + vy
    if p == 1 and not scalar:
        raise NotImplementedError("np.cov of one variable given as a 2-D array is numpy's 0-D array (son's "
                                  "result is 2-D: pass the variable as a 1-D array)")
    x = np.empty((p, n))
    for i in range(vm):
        for k in range(n):
            x[i, k] = float(m[k, i]) if mt else float(m[i, k])
    for i in range(vy):
        for k in range(n):
            x[vm + i, k] = float(y[k, i]) if flip else float(y[i, k])
    return x, vote and not ambiguous, n


def _covariance(m, ms0, ms1, mt, y, ys0, ys1, yt, has_y, y_copied, ddof, scalar):
    x, fortran, n = _data(m, ms0, ms1, mt, y, ys0, ys1, yt, has_y, y_copied, scalar)
    avg = np.zeros(x.shape[0])
    if fortran:
        fold_axis(x, 1, avg, ADD)
    else:
        sum_rows(x, avg)
    avg = avg / n
    for i in range(x.shape[0]):
        for k in range(n):
            x[i, k] = x[i, k] - avg[i]
    c = np.dot(x, x.T)
    fact = n - ddof
    scale = 1.0 / fact if fact > 0 else ieee_divide(1.0, 0.0)
    return c * scale


def covariance(m, ms0, ms1, mt, y, ys0, ys1, yt, has_y, y_copied, ddof, scalar):
    return _covariance(m, ms0, ms1, mt, y, ys0, ys1, yt, has_y, y_copied, ddof, scalar)


def covariance_scalar(m, ms0, ms1, mt, y, ys0, ys1, yt, has_y, y_copied, ddof, scalar):
    return _covariance(m, ms0, ms1, mt, y, ys0, ys1, yt, has_y, y_copied, ddof, scalar)[0, 0]


def correlation(m, ms0, ms1, mt, y, ys0, ys1, yt, has_y, y_copied, ddof, scalar):
    """numpy's ``c /= stddev[:, None]; c /= stddev[None, :]`` and its clip."""
    c = _covariance(m, ms0, ms1, mt, y, ys0, ys1, yt, has_y, y_copied, ddof, scalar)
    d = np.empty(c.shape[0])
    for i in range(c.shape[0]):
        d[i] = c[i, i]
    s = np.sqrt(d)
    for i in range(c.shape[0]):
        for j in range(c.shape[1]):
            c[i, j] = ieee_divide(ieee_divide(c[i, j], s[i]), s[j])
    return np.clip(c, -1, 1)


def correlation_scalar(m, ms0, ms1, mt, y, ys0, ys1, yt, has_y, y_copied, ddof, scalar):
    """numpy's ``c / c`` of a 0-D covariance: NaN for 0, inf and NaN, else 1.0."""
    c = _covariance(m, ms0, ms1, mt, y, ys0, ys1, yt, has_y, y_copied, ddof, scalar)[0, 0]
    return ieee_divide(c, c)
