"""``np.einsum(subscripts, *operands)`` of 1-D to 3-D bool, int64 and float64 arrays,
the subscripts a string constant written in the call (explicit ``'ij,jk->ik'`` or
implicit ``'ij,jk'``: the labels met once, in ASCII order, as numpy's).

- numpy's errors of the subscripts themselves (a wrong count of operands or of one
  operand's labels, a label that is not a letter, an output label repeated or never in
  an input) are numpy's own, found by asking numpy with empty operands of the same
  dimensions and dtypes; they raise when the call runs, as CPython's would.
- A label repeated in one operand reads its diagonal (``'ii->i'``, ``'ii'`` the trace):
  numpy's ValueError where those dimensions differ.  numpy takes a first length of 0
  for "not known yet": ``'ii->i'`` of a (0, 2) array is its view of 2 elements read
  outside the empty array.  son raises ``NotImplementedError`` there, its run-time
  refusal (``son.jit`` runs the call in CPython).  A label shared by operands takes the
  length that is not 1 (a length of 1 broadcasts, as numpy's), numpy's ValueError where
  two lengths differ and neither is 1.  All checked before an element is read.
- One operand and no label summed (``'ij->ji'``, ``'ii->i'``, ``'ijk->kij'``): numpy's
  view of the operand's base, axes exchanged, a repeated label one axis whose stride is
  the sum of its axes' strides.  Nothing is copied; a write to it writes the operand.
- Otherwise a new array of numpy's result dtype (bool < int64 < float64; a number for no
  output label, as son's reductions): each element is the sum over the summed labels,
  nested in the order they first appear and each from 0, of the operands' product, left
  to right, each operand first cast to the result's dtype (numpy's casts: an int product
  of a float result is not wrapped first).  ints wrap around (int64); bools are the or of
  ands.  That is numpy's result bit for bit for ints and bools.  For floats numpy's own
  loops sum in blocks with several accumulators, and factor a stride-0 operand out of a
  sum (``'i,j->i'`` is ``a[i] * sum(b)`` there: ``inf * 0.0`` terms give NaN in son's
  order and inf in numpy's), so a float element of two terms or more may differ from
  numpy's as son's other float products do (docs/decisions.md).

Refused with a located error: subscripts that are not a string constant (numpy's
interleaved form ``einsum(a, [0, 1], b, [1, 2])``), ``...`` (broadcast dimensions),
keywords (``optimize=``, ``out=``, ``dtype=``...), operands that are numbers or lists, of
another dtype, a result of more than 3 dimensions, and more than 16 distinct labels (a
loop nest that deep passes Python's limit of nested blocks).

The sum of products is written in the Python son compiles (``_helper`` generates one
function per shape of the subscripts, kept for the process) and inlined: the scheduler,
kernels and both derivative modes take it as loops.  O(operands * labels) nodes plus the
inlined loop nest; time O(product of the labels' lengths)."""

from __future__ import annotations

import ast
import linecache
from functools import cache

import numpy as np

from ..nodes import EQ, NE, Add, BitAnd, Mul, Node, Sub, ToInt, kept
from .core import dtype_of, is_array_value
from .scope import Grid, View

#: the zero each result dtype's sum starts from (bools summed as ints)
_ZERO = {"bool": 0, "int64": 0, "float64": 0.0}
_DTYPES = {"bool": np.bool_, "int64": np.int64, "float64": np.float64}
#: the most distinct labels son's loop nest takes (Python nests at most 20 blocks)
_MOST_LABELS = 16


class Einsum:
    """FunctionParser's ``np.einsum`` (a mixin)."""

    def call_einsum(self, e: ast.Call, name: str):
        if e.keywords:
            raise self.unsupported(e, f"{name}() with keywords (son reads the subscripts and the operands)")
        if not e.args or not (isinstance(e.args[0], ast.Constant) and isinstance(e.args[0].value, str)):
            raise self.unsupported(e, f"{name}() whose subscripts are not a string constant written in the "
                                      "call (numpy's interleaved form of operands and label lists)")
        if any(isinstance(x, ast.Starred) for x in e.args):
            raise self.unsupported(e, f"{name}() with *args")
        text = e.args[0].value
        if "." in text:
            raise self.unsupported(e.args[0], f"{name}() with '...' (son's operands have their own labels "
                                              "for every axis)")
        ops = self.product_operands(e, self.operands(list(e.args[1:])))
        for v, at in zip(ops, e.args[1:]):
            if not (isinstance(v, Grid) or is_array_value(v)) or dtype_of(_array(v)) not in _ZERO:
                what = v.type.widen() if isinstance(v, Node) else type(v).__name__
                raise self.unsupported(at, f"{name}() of {what} (son takes bool, int64 and float64 arrays)")
        with kept(*ops):
            grids = []
            for v, at in zip(ops, e.args[1:]):
                with kept(*grids):
                    grids.append(self.grid_of(at, v, name).keep())
            for g in grids:
                g.unkeep()
        with kept(*grids):
            try:  # numpy's errors of the subscripts, and its result's dtype
                probe = np.einsum(text, *[np.zeros((0,) * g.ndim, _DTYPES[dtype_of(g.base)]) for g in grids])
            except (ValueError, TypeError) as exc:
                return self.fault(type(exc), str(exc))
            ins, out = labels(text)
            if len(out) > 3:
                raise self.unsupported(e, f"{name}() giving a {len(out)}-D array (son makes 1-D to 3-D "
                                          "arrays)")
            dtype = str(probe.dtype)
            if len(set(text) - set(",->")) > _MOST_LABELS:
                raise self.unsupported(e, f"{name}() of more than {_MOST_LABELS} labels (its loop nest would "
                                          "pass Python's limit of nested blocks)")
            extents = self.einsum_extents(e, grids, ins)
            with kept(*extents.values()):
                views = self.einsum_views(e, grids, ins, extents)
            with kept(*views):
                uniq = ["".join(dict.fromkeys(s)) for s in ins]
                if len(views) == 1 and sorted(out) == sorted(uniq[0]):
                    g = views[0]
                    order = [uniq[0].index(c) for c in out]
                    return self.shaped(e, g.base, g.start, [g.dims[k] for k in order],
                                       [g.strides[k] for k in order])
                cast = tuple(dtype == "float64" and dtype_of(g.base) != "float64" for g in grids)
                fn = _helper(*_canonical(uniq, out), cast)
                args = [v if v.ndim > 1 else View(self.g, v.base, v.start, v.strides[0], v.dims[0])
                        for v in views]
                with kept(*args):
                    res = self.inline_list_helper(e, fn, [*args, self.con(_ZERO[dtype])])
        return self.logical(e, res) if dtype == "bool" else res

    def einsum_extents(self, at: ast.AST, grids: list[Grid], ins: list[str]) -> dict[str, Node]:
        """Each label's length: numpy's ValueError where one operand's axes of a label
        differ, or where operands' lengths of it differ and are not 1; else the length
        that is not 1 (or 1)."""
        firsts: dict[str, list[Node]] = {}  # label -> its length in each operand having it
        for k, (g, s) in enumerate(zip(grids, ins)):
            where = "single operand" if len(grids) == 1 else f"operand {k}"
            for c, axes in _axes(s).items():
                first = g.dims[axes[0]]
                for i in axes[1:]:  # numpy's length 0 first is "not known yet" (above)
                    empty = self.op(at, BitAnd, self.op(at, EQ, first, self.con(0)),
                                    self.op(at, NE, g.dims[i], self.con(0)))
                    self.guard(empty, NotImplementedError, f"numpy's einsum reads the diagonal '{c}' of an "
                                                           "empty axis as a view of another axis's length")
                for i in axes[1:]:
                    self.guard(self.op(at, NE, first, g.dims[i]), ValueError,
                               f"dimensions in {where} for collapsing index '{c}' don't match")
                firsts.setdefault(c, []).append(first)
        extents: dict[str, Node] = {}
        for c, dims in firsts.items():
            n = dims[0]
            with kept(*extents.values()):
                for d in dims[1:]:  # n takes d where it is still 1
                    with kept(n):
                        took = self.op(at, ToInt, self.op(at, EQ, n, self.con(1)))
                        n = self.op(at, Add, n, self.op(at, Mul, took, self.op(at, Sub, d, n)))
                with kept(n):
                    for d in dims if len(dims) > 1 else ():
                        bad = self.op(at, BitAnd, self.op(at, NE, d, n), self.op(at, NE, d, self.con(1)))
                        self.guard(bad, ValueError, "operands could not be broadcast together with remapped "
                                                    "shapes")
            extents[c] = n
        return extents

    def einsum_views(self, at: ast.AST, grids: list[Grid], ins: list[str],
                     extents: dict[str, Node]) -> list[Grid]:
        """Each operand seen with one axis per distinct label, in order: a repeated
        label's axes one axis (its stride their sum), a length of 1 broadcast to the
        label's length (stride 0)."""
        shared = {c for c in extents if sum(c in s for s in ins) > 1}
        views: list[Grid] = []
        for g, s in zip(grids, ins):
            dims, strides = [], []
            with kept(*views):
                for c, axes in _axes(s).items():
                    with kept(*dims, *strides):
                        stride = g.strides[axes[0]]
                        for i in axes[1:]:
                            stride = self.op(at, Add, stride, g.strides[i])
                        if c in shared:
                            with kept(stride):
                                same = self.op(at, ToInt, self.op(at, EQ, g.dims[axes[0]], extents[c]))
                                stride = self.op(at, Mul, stride, same)
                    dims.append(extents[c])
                    strides.append(stride)
                views.append(Grid(self.g, g.base, g.start, *dims, *strides))
        return views


def _array(v) -> Node:
    return v.base if isinstance(v, (Grid, View)) else v


def labels(text: str) -> tuple[list[str], str]:
    """The operands' labels and the output's of valid subscripts ``text`` (the output's
    in implicit mode: the labels met once, in ASCII order)."""
    text = text.replace(" ", "")
    if "->" in text:
        left, out = text.split("->")
    else:
        left = text
        counts = {c: left.count(c) for c in left if c != ","}
        out = "".join(sorted(c for c, n in counts.items() if n == 1))
    return left.split(","), out


def _axes(s: str) -> dict[str, list[int]]:
    """Each distinct label of one operand's subscripts, in order, and its axes."""
    axes: dict[str, list[int]] = {}
    for i, c in enumerate(s):
        axes.setdefault(c, []).append(i)
    return axes


def _canonical(uniq: list[str], out: str) -> tuple[tuple[str, ...], str]:
    """The labels renamed to ``a``, ``b``, ... in order of first appearance (one helper
    for every spelling of the same subscripts)."""
    names: dict[str, str] = {}
    for c in "".join(uniq):
        names.setdefault(c, chr(ord("a") + len(names)))
    return tuple("".join(names[c] for c in s) for s in uniq), "".join(names[c] for c in out)


@cache
def _helper(ins: tuple[str, ...], out: str, cast: tuple[bool, ...]):
    """The Python function, in the subset son compiles, of ``einsum`` for operands with
    distinct labels ``ins`` and output labels ``out``: ``(o0, o1, ..., zero)`` -> the
    result, every element summed from ``zero``.  Its source is registered with
    ``linecache`` so that son reads it as it reads a function of a file."""
    labels = "".join(dict.fromkeys("".join(ins)))
    summed = [c for c in labels if c not in out]
    params = [f"o{k}" for k in range(len(ins))]
    lines = [f"def einsum({', '.join(params)}, zero):"]  # labels are i<ord>, lengths n<ord>
    for c in labels:
        k = next(k for k, s in enumerate(ins) if c in s)
        length = f"len(o{k})" if len(ins[k]) == 1 else f"o{k}.shape[{ins[k].index(c)}]"
        lines.append(f"    n{ord(c)} = {length}")
    terms = []
    for k, s in enumerate(ins):
        read = f"o{k}[{', '.join(f'i{ord(c)}' for c in s)}]"
        terms.append(f"float({read})" if cast[k] else read)
    product = " * ".join(terms)
    pad = "    "
    if out:
        shape = f"n{ord(out)}" if len(out) == 1 else "(" + ", ".join(f"n{ord(c)}" for c in out) + ")"
        lines.append(f"    out = np.full({shape}, zero)")
        for c in out:
            lines.append(f"{pad}for i{ord(c)} in range(n{ord(c)}):")
            pad += "    "
    lines.append(f"{pad}total = zero")
    inner = pad
    for c in summed:
        lines.append(f"{inner}for i{ord(c)} in range(n{ord(c)}):")
        inner += "    "
    lines.append(f"{inner}total += {product}")
    if out:
        lines.append(f"{pad}out[{', '.join(f'i{ord(c)}' for c in out)}] = total")
        lines.append("    return out")
    else:
        lines.append("    return total")
    source = "\n".join(lines) + "\n"
    filename = f"<son einsum {','.join(ins)}->{out} {''.join('f' if c else '-' for c in cast)}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {"np": np, "__name__": __name__}  # a son helper: always inlined (recursion.kept_call)
    exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - son's own generated source
    return namespace["einsum"]


EINSUM_CALLS = {np.einsum: lambda p, e, n: p.call_einsum(e, n)}
