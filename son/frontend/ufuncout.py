"""A ufunc's output array: ``np.add(a, b, out=c)``, ``np.sqrt(x, c)``, ``out=(c,)``
(son/frontend/ufuncs.py computes the result; this writes it into ``c``).  See
``UfuncOutputs.ufunc_into``."""

from __future__ import annotations

import ast

import numpy as np

from ..nodes import Node, kept
from .core import _kind, dtype_of, is_array_value
from .scope import Grid
from .ufuncs import _is_arrayish, _pure


class UfuncOutputs:
    """FunctionParser's ufunc calls with an output array (a mixin; ``Ufuncs.call_object``
    sends them here)."""

    def ufunc_into(self, e: ast.Call, fn: np.ufunc, name: str) -> Node:
        """``np.add(a, b, out=c)``, ``np.cos(x, c)``: the result computed as without
        ``out``, then written into ``c`` as ``c[...] = result`` writes it (the inputs
        broadcast to ``c``'s shape, numpy's ValueError where they do not; an input that
        overlaps ``c`` read as it was, as numpy's overlap check makes it), and ``c``
        itself the value.  numpy's ``same_kind`` rule (bool < int < float) is checked
        where written: a result of a higher kind than ``c`` is numpy's TypeError, a
        located error.  ``out`` is evaluated once, after the result (CPython evaluates
        it after the inputs, before computing: the same unless it changes them, so it
        must be free of calls but numpy's, ``_pure``).  O(the result's size) time: a
        temporary, then the copy."""
        outs = e.args[fn.nin:] + [k.value for k in e.keywords if k.arg == "out"]
        if len(outs) != 1:
            raise self.error(e, f"{name}() takes one output array (numpy's TypeError: "
                                f"cannot specify 'out' as both a positional and keyword argument)", name)
        out = outs[0]
        if isinstance(out, ast.Tuple) and len(out.elts) == 1:  # out=(c,)
            out = out.elts[0]
        if not _pure(out) or isinstance(out, ast.Constant):
            raise self.unsupported(out, f"{name}() with an out= that is not an array's name or item")
        rest = [k for k in e.keywords if k.arg != "out"]
        call = ast.copy_location(ast.Call(e.func, e.args[:fn.nin], rest), e)
        v = self.materialized(e, self.ew_call(call, fn, name))
        with kept(v):
            target = self.expr(out)
            if not (isinstance(target, Grid) or is_array_value(target)):
                raise self.error(out, f"{name}() with an out= of a {target.type.widen()} value (numpy's "
                                      "TypeError: return arrays must be of ArrayType)", name)
            got = dtype_of(v) if _is_arrayish(v) else \
                {"float": "float64", "int": "int64", "bool": "bool"}.get(_kind(v), "float64")
            want = dtype_of(target)
            order = ["bool", "int64", "float64"]
            if order.index(got) > order.index(want):
                raise self.error(e, f"Cannot cast ufunc '{fn.__name__}' output from dtype('{got}') to "
                                    f"dtype('{want}') with casting rule 'same_kind' (numpy's TypeError)",
                                 name)
            whole = ast.Constant(...) if isinstance(target, Grid) else ast.Slice(None, None, None)
            tmp = self.temp()  # out evaluated once: np.empty(n) twice would be two arrays
            self.scope.set(tmp, target)
            name = ast.copy_location(ast.Name(tmp, ast.Load()), out)
            self.assign(ast.copy_location(ast.Subscript(name, whole, ast.Store()), out), v)
            target = self.scope.get(tmp)
            with kept(target):
                self.scope.remove(tmp)
        return target
