"""Matrix products: ``a @ b``, ``np.matmul``, ``np.dot``, ``np.inner``, ``np.vdot``,
``np.outer`` (and ``np.tensordot``) of 1-D and 2-D arrays, views and chains, lowered to
the graph's loops.

- ``a @ b`` and ``np.matmul``: vector . vector is a number, matrix @ vector and vector @
  matrix a 1-D array, matrix @ matrix a new C-order 2-D array; numpy's ValueError where
  the core dimensions differ (checked before any element is read).  A number operand is
  numpy's ValueError, found while parsing (a located error).
- ``np.dot``: the same for 1-D and 2-D operands; a number operand multiplies
  elementwise (into zeros, as BLAS's daxpy: a zero scales to zeros, a -0.0 product is
  0.0), and two operands of one element each give their product itself (numpy
  takes such an operand for a number: ``np.dot([0.0], [-0.0])`` is ``-0.0`` where ``@``
  gives ``0.0``).  ``np.inner`` of 1-D arrays is ``np.dot``'s vector product, ``np.vdot``
  ``@``'s.
- ``np.outer(a, b)``: ``out[i, j] = a[i] * b[j]`` of 1-D operands.
- ``np.tensordot(a, b, axes=2)`` of 1-D to 3-D int or float arrays, a constant int or a
  pair of constant axis lists: numpy's steps, each operand transposed and copied as a
  matrix, ``np.dot`` of the two (its rules above), the result seen in the free axes'
  shape; numpy's ValueError ("shape-mismatch for sum", "repeated axis in transpose") and
  IndexError at run time.  A 0-D result (every axis summed) and one of more than 3
  dimensions are refused.

Result dtypes are numpy's (bool < int64 < float64; a bool product is the logical or of
ands).  The elements are summed in index order from zero, as numpy's own loops do: for
ints and bools (int64 wrap-around) and wherever numpy does not call BLAS that is
numpy's result bit for bit.  numpy's float products call BLAS, whose summation order
depends on the machine's kernels (OpenBLAS picks them by CPU), so a float product may
differ from numpy's in its last bits (docs/decisions.md).  Refused: operands of more
than two dimensions, ``out=`` and other keywords, ``@=``.

Each product is written in the Python son compiles and inlined, so the scheduler,
kernels and both derivative modes take it as loops.  O(1) nodes per call plus the
inlined loops; O(n*k*m) time."""

from __future__ import annotations

import ast

import numpy as np

from ..nodes import NE, Mul, Node, kept
from .core import dtype_of, is_array_value, promoted
from .lists import DTYPE_OF_KIND
from .scope import Grid, View

#: the zero a product of this result dtype starts from (bools are summed as ints)
_ZERO = {"bool": 0, "int64": 0, "float64": 0.0}
_MISMATCH = {"matmul": "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
                       "signature (n?,k),(k,m?)->(n?,m?)",
             "dot": "shapes not aligned"}


def _dtype(v) -> str:
    return dtype_of(v.base if isinstance(v, Grid) else v)


def _ndim(v) -> int:
    if isinstance(v, Grid):
        return v.ndim
    return 1 if is_array_value(v) else 0


class LinearAlgebra:
    """FunctionParser's matrix products (a mixin)."""

    def product_operands(self, at: ast.AST, vals: list) -> list:
        """``vals`` (operands: chains, arrays, numbers) with every chain made an array."""
        done: list = []
        for v in vals:
            with kept(*[x for x in done if isinstance(x, Node)]):
                done.append(self.materialized(at, v))
        return done

    def matmul(self, e: ast.AST, vals: list, name: str, rule: str = "matmul"):
        """``a @ b`` (``rule`` "matmul") or ``np.dot(a, b)`` (``rule`` "dot") of evaluated
        operands (chains too)."""
        a, b = self.product_operands(e, vals)
        na, nb = _ndim(a), _ndim(b)
        if rule == "dot" and 0 in (na, nb):
            return self.scaled(e, a, b, name)
        if 0 in (na, nb):
            which = 0 if na == 0 else 1
            raise self.error(e, f"matmul: Input operand {which} does not have enough dimensions (a number "
                                "is not a matrix: use *)", name)
        if max(na, nb) > 2:
            raise self.unsupported(e, f"{name}() of a {max(na, nb)}-D array (son multiplies 1-D and 2-D "
                                      "arrays)")
        dtype = promoted(_dtype(a), _dtype(b))
        with kept(a, b):
            inner_a = a.dims[1] if na == 2 else self.length(e, a)
            inner_b = b.dims[0] if nb == 2 else self.length(e, b)
            self.guard(self.op(e, NE, inner_a, inner_b), ValueError, _MISMATCH[rule])
            fn = {(1, 1): dot, (2, 1): matvec, (1, 2): vecmat, (2, 2): matmat}[na, nb]
            out = self.inline_list_helper(e, fn, [a, b, self.con(_ZERO[dtype]), self.con(rule == "dot")])
        return self.logical(e, out) if dtype == "bool" else out

    def scaled(self, e: ast.AST, a: Node, b: Node, name: str) -> Node:
        """``np.dot`` with a number operand: numpy's daxpy of it into zeros (above)."""
        num, arr = (a, b) if _ndim(a) == 0 else (b, a)
        if _ndim(arr) == 0:
            raise self.unsupported(e, f"{name}() of two numbers (write a * b)")
        kind = self.scalar_kind(e, num, name)
        dtype = promoted(DTYPE_OF_KIND[kind], _dtype(arr))
        with kept(a, b):
            out = self.inline_list_helper(e, scale if _ndim(arr) == 1 else scale_grid,
                                          [arr, num, self.con(_ZERO[dtype])])
        return self.logical(e, out) if dtype == "bool" else out

    def logical(self, e: ast.AST, out: Node) -> Node:
        """A product of bools summed as ints, made numpy's bool (any term true)."""
        if not (isinstance(out, Grid) or is_array_value(out)):
            with kept(out):
                return self.op(e, NE, out, self.con(0))
        with kept(out):
            chain = self.combine(e, [self.leaf(e, out)], "bool", lambda p, x: p.op(e, NE, x, p.con(0)))
        return self.materialize(e, chain)

    def call_product(self, e: ast.Call, name: str, rule: str):
        """``np.matmul``, ``np.dot``, ``np.inner``, ``np.vdot``, ``np.outer`` (``rule``)."""
        if len(e.args) != 2 or e.keywords:
            raise self.error(e, f"{name}() takes two arrays (son reads no keywords)", name)
        vals = self.operands(list(e.args))
        if rule in ("matmul", "dot"):
            return self.materialized(e, self.matmul(e, vals, name, rule))
        a, b = self.product_operands(e, vals)
        if rule == "outer":  # numpy flattens n-D operands (C order)
            with kept(a, b):
                a = self.flat_view(e, a, name, any_order=True) if isinstance(a, Grid) else a
                with kept(a):
                    b = self.flat_view(e, b, name, any_order=True) if isinstance(b, Grid) else b
        for v, at in zip((a, b), e.args):
            if _ndim(v) != 1:
                raise self.unsupported(at, f"{name}() of anything but 1-D arrays")
        if rule == "outer":
            dtype = promoted(_dtype(a), _dtype(b))
            with kept(a, b):
                out = self.inline_list_helper(e, outer, [a, b, self.con(_ZERO[dtype])])
            return self.logical(e, out) if dtype == "bool" else out
        return self.matmul(e, [a, b], name, "dot" if rule == "inner" else "matmul")

    # -- np.tensordot -------------------------------------------------------------------
    def call_tensordot(self, e: ast.Call, name: str):
        """``np.tensordot(a, b, axes=2)`` as numpy writes it: each operand's axes
        transposed (free ones first in ``a``, last in ``b``), reshaped to a matrix, ``np.dot``
        of the two, reshaped to the free axes of ``a`` then ``b``."""
        got = self.call_arguments(e, name, ["a", "b", "axes"], optional={"axes"})
        axes_a, axes_b = self.tensordot_axes(got.get("axes"), name)
        a, b = self.product_operands(e, self.operands([got["a"], got["b"]]))
        with kept(a, b):
            grids = []
            for v, at in zip((a, b), (got["a"], got["b"])):
                if not 1 <= _ndim(v) <= 3 or _dtype(v) == "bool":
                    raise self.unsupported(at, f"{name}() of anything but 1-D to 3-D int or float arrays")
                with kept(*grids):
                    grids.append(v if isinstance(v, Grid) else self.as_grid(at, v))
            ga, gb = grids
            with kept(ga, gb):
                if len(axes_a) != len(axes_b):
                    return self.fault(ValueError, "shape-mismatch for sum")
                for i, j in zip(axes_a, axes_b):  # numpy's order: a's axis, b's, their lengths
                    if not (-ga.ndim <= i < ga.ndim and -gb.ndim <= j < gb.ndim):
                        return self.fault(IndexError, "tuple index out of range")
                    self.guard(self.op(e, NE, ga.dims[i], gb.dims[j]), ValueError, "shape-mismatch for sum")
                axes_a = [i % ga.ndim for i in axes_a]
                axes_b = [j % gb.ndim for j in axes_b]
                if len(set(axes_a)) < len(axes_a) or len(set(axes_b)) < len(axes_b):
                    return self.fault(ValueError, "repeated axis in transpose")
                free_a = [k for k in range(ga.ndim) if k not in axes_a]
                free_b = [k for k in range(gb.ndim) if k not in axes_b]
                dims = [ga.dims[k] for k in free_a] + [gb.dims[k] for k in free_b]
                if not dims:
                    raise self.unsupported(e, f"{name}() summing every axis (numpy's result is a 0-D array, "
                                              "which son does not make)",
                                           instead="np.sum(a * b) is its number")
                if len(dims) > 3:
                    raise self.unsupported(e, f"{name}() giving a {len(dims)}-D array (son makes 1-D to 3-D "
                                              "arrays)")
                ma = self.as_matrix(e, ga, free_a + axes_a, len(free_a))
                with kept(ma):
                    mb = self.as_matrix(e, gb, axes_b + free_b, len(axes_b))
                with kept(ma, mb, *dims):
                    res = self.matmul(e, [ma, mb], name, "dot")
                with kept(res, *dims):
                    if len(dims) == 1:
                        return View(self.g, res.base, res.start, self.con(1), dims[0])
                    return self.c_order(e, res.base, res.start, dims)

    def tensordot_axes(self, axes: ast.expr | None, name: str) -> tuple[list[int], list[int]]:
        """numpy's ``axes_a``, ``axes_b``: ``range(-k, 0)`` and ``range(k)`` for an int
        ``k``, else the two axes (or lists of axes) of a pair."""
        if axes is None:
            return [-2, -1], [0, 1]
        if isinstance(axes, (ast.Tuple, ast.List)):
            if len(axes.elts) != 2:
                raise self.error(axes, f"{name}(): axes must be an int or a pair of axis lists", name)
            return self.axis_list(axes.elts[0], name), self.axis_list(axes.elts[1], name)
        k = self.expr(axes)
        if not (k.type.is_constant and type(k.type.con) is int):
            raise self.unsupported(axes, f"{name}() with axes that are not a constant int or a pair of "
                                         "constant axis lists written where it is called")
        return list(range(-k.type.con, 0)), list(range(k.type.con))

    def axis_list(self, x: ast.expr, name: str) -> list[int]:
        items = x.elts if isinstance(x, (ast.Tuple, ast.List)) else [x]
        out = []
        for it in items:
            v = self.expr(it)
            if not (v.type.is_constant and type(v.type.con) is int):
                raise self.unsupported(it, f"{name}() with an axis that is not a constant int")
            out.append(v.type.con)
        return out

    def as_matrix(self, at: ast.AST, g: Grid, order: list[int], rows: int) -> Grid:
        """``g.transpose(order).reshape(M, K)``, ``M`` the product of the first ``rows``
        transposed dims: a C-order copy of the transposed view, seen as a matrix."""
        dims = [g.dims[k] for k in order]
        flat = self.raveled(at, self.permuted(at, g, order))
        with kept(flat):
            m, k = self.con(1), self.con(1)
            for i, d in enumerate(dims):
                with kept(m, k):
                    if i < rows:
                        m = self.op(at, Mul, m, d)
                    else:
                        k = self.op(at, Mul, k, d)
            with kept(m, k):
                if isinstance(flat, View):
                    return self.c_order(at, flat.base, flat.start, [m, k], flat.step)
                return self.c_order(at, flat, self.con(0), [m, k])


# ---------------------------------------------------------------- inlined (son's Python)
# ``single``: np.dot's rules for a float operand of one element (numpy's
# cblas_matrixproduct takes it for a number s): two such operands give their product
# itself (-0.0 stays -0.0, where a sum adds its terms to 0.0); else the result is BLAS's
# daxpy of s into zeros, which does nothing for s == 0 (zeros where 0 * inf would be NaN).
# For ints and bools both rules give the sum's value.
def dot(a, b, zero, single):
    if single and len(a) == 1:
        return a[0] * b[0]
    total = zero
    for i in range(len(a)):
        total += a[i] * b[i]
    return total


def matvec(a, b, zero, single):
    out = np.full(a.shape[0], zero)
    for i in range(a.shape[0]):
        total = zero
        for k in range(a.shape[1]):
            total += a[i, k] * b[k]
        out[i] = total
    if single and a.shape[1] == 1:
        if a.shape[0] == 1:
            out[0] = a[0, 0] * b[0]
        elif b[0] == 0:
            for i in range(a.shape[0]):
                out[i] = zero
    return out


def vecmat(a, b, zero, single):
    """Each ``out[j]`` summed over ``k`` in order (the rows of ``b`` read along)."""
    out = np.full(b.shape[1], zero)
    for k in range(b.shape[0]):
        for j in range(b.shape[1]):
            out[j] += a[k] * b[k, j]
    if single and b.shape[0] == 1:
        if b.shape[1] == 1:
            out[0] = a[0] * b[0, 0]
        elif a[0] == 0:
            for j in range(b.shape[1]):
                out[j] = zero
    return out


def matmat(a, b, zero, single):
    """Each ``out[i, j]`` summed over ``k`` in order, the inner loop along a row of
    ``b`` and of ``out`` (the order of each element's terms is that of the i-j-k loop)."""
    out = np.full((a.shape[0], b.shape[1]), zero)
    for i in range(a.shape[0]):
        for k in range(a.shape[1]):
            for j in range(b.shape[1]):
                out[i, j] += a[i, k] * b[k, j]
    if single and a.shape[1] == 1 and a.shape[0] > 0:
        if a.shape[0] == 1 and b.shape[1] == 1:
            out[0, 0] = a[0, 0] * b[0, 0]
        elif (a.shape[0] == 1 and a[0, 0] == 0) or (b.shape[1] == 1 and b[0, 0] == 0):
            for i in range(a.shape[0]):
                for j in range(b.shape[1]):
                    out[i, j] = zero
    return out


def scale(x, s, zero):
    out = np.full(len(x), zero)
    if len(x) == 1:
        out[0] = s * x[0]
    elif s != 0:
        for i in range(len(x)):
            out[i] = zero + s * x[i]
    return out


def scale_grid(x, s, zero):
    out = np.full((x.shape[0], x.shape[1]), zero)
    if x.shape[0] == 1 and x.shape[1] == 1:
        out[0, 0] = s * x[0, 0]
    elif s != 0:
        for i in range(x.shape[0]):
            for j in range(x.shape[1]):
                out[i, j] = zero + s * x[i, j]
    return out


def outer(a, b, zero):
    out = np.full((len(a), len(b)), zero)
    for i in range(len(a)):
        for j in range(len(b)):
            out[i, j] = a[i] * b[j]
    return out


LINALG_CALLS = {
    np.matmul: lambda p, e, n: p.call_product(e, n, "matmul"),
    np.dot: lambda p, e, n: p.call_product(e, n, "dot"),
    np.inner: lambda p, e, n: p.call_product(e, n, "inner"),
    np.vdot: lambda p, e, n: p.call_product(e, n, "vdot"),
    np.outer: lambda p, e, n: p.call_product(e, n, "outer"),
    np.tensordot: lambda p, e, n: p.call_tensordot(e, n),
}
