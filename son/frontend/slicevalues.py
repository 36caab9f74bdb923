"""Slice objects as values: ``s = slice(a, b, c)`` (``slice(b)``, ``slice(a, b)``), its
``start``/``stop``/``step``, and ``x[s]``, ``x[slice(a, b)]``, ``x[s, j]`` wherever a
subscript is read, assigned or updated in place.

A slice is an ``Slc`` (a frontend aggregate, as a tuple is a ``Pack``) of its three
parts, each an int, None, or an int that may be None; it merges at branches part by
part.  A subscript whose index (or an item of an index tuple) is a name bound to a slice,
or a ``slice(...)`` call, is parsed as the subscript spelled with ``lo:hi:step``, the
parts bound to temporaries for the duration (``spelled_slices``): what ``x[lo:hi:step]``
does for each kind of ``x`` (arrays, views, n-D arrays, lists, stores into them) is
then what ``x[s]`` does, in one place.  CPython evaluates the index after ``x``; a
slice's parts are values already, so the order is the same.  O(1) nodes per slice."""

from __future__ import annotations

import ast

from ..nodes import Node
from ..nodes.types import NONE
from .core import _kind
from .scope import Opt, Slc


class SliceValues:
    """FunctionParser's slice objects (a mixin, ahead of Names for attributes)."""

    def call_slice(self, e: ast.Call, name: str) -> Node:
        """``slice(stop)``, ``slice(start, stop)``, ``slice(start, stop, step)``: ints or
        None (son indexes with int slices; another value is refused where written)."""
        if e.keywords or not 1 <= len(e.args) <= 3:
            raise self.error(e, f"slice expected 1 to 3 arguments, got {len(e.args)} (son reads no keyword)",
                             "slice")
        vals = self.exprs(e.args, any_value=True)
        for x, v in zip(e.args, vals):
            inner = v.value if isinstance(v, Opt) else v
            if not (v.type is NONE or _kind(inner) in ("int", "bool")):
                raise self.unsupported(x, f"slice() of a {v.type.widen()} value (son slices with ints and "
                                          "None)")
        none = self.con(None)
        parts = [none, vals[0], none] if len(vals) == 1 else vals + [none] * (3 - len(vals))
        return Slc(self.g, *parts)

    def slice_attribute(self, e: ast.Attribute) -> Node | None:
        """``s.start``, ``s.stop``, ``s.step`` of a name bound to a slice (None: not one)."""
        if not isinstance(e.value, ast.Name):
            return None
        s = self.scope.get(e.value.id)
        if not isinstance(s, Slc):
            return None
        parts = {"start": 0, "stop": 1, "step": 2}
        if e.attr not in parts:
            raise self.error(e, f"'slice' object has no attribute {e.attr!r} (son reads start, stop and "
                                "step)", "attribute")
        return s.elems[parts[e.attr]]

    def spelled_slices(self, e: ast.Subscript) -> ast.Subscript:
        """``e`` with each index item that is a slice value or a ``slice(...)`` call spelled
        ``lo:hi:step``; the parts of a value are bound to temporaries, which
        ``drop_spelled`` removes once the subscript is parsed.  ``e`` itself where there
        is none."""
        items = e.slice.elts if isinstance(e.slice, ast.Tuple) else [e.slice]
        temps: list[str] = []
        spelled = [self._spelled(x, temps) for x in items]
        if all(y is x for x, y in zip(items, spelled)):
            return e
        index = ast.copy_location(ast.Tuple(spelled, ast.Load()), e.slice) if isinstance(e.slice, ast.Tuple) \
            else spelled[0]
        out = ast.copy_location(ast.Subscript(e.value, index, e.ctx), e)
        out.son_temps = temps
        return out

    def drop_spelled(self, e: ast.Subscript) -> None:
        for t in getattr(e, "son_temps", ()):
            if self.scope.get(t) is not None:
                self.scope.remove(t)

    def _spelled(self, x: ast.expr, temps: list[str]) -> ast.expr:
        if isinstance(x, ast.Call) and isinstance(x.func, ast.Name) and not self.is_value(x.func) \
                and self.resolve_quiet(x.func) is slice and not x.keywords and 1 <= len(x.args) <= 3 \
                and not any(isinstance(a, ast.Starred) for a in x.args):
            a = x.args
            lo, hi, step = (None, a[0], None) if len(a) == 1 else (a[0], a[1], a[2] if len(a) == 3 else None)
            return ast.copy_location(ast.Slice(lo, hi, step), x)
        if not isinstance(x, ast.Name) or not isinstance(self.scope.get(x.id), Slc):
            return x
        names = []
        for part in self.scope.get(x.id).elems:
            if part.type is NONE and not isinstance(part, Opt):
                names.append(None)
                continue
            t = self.temp()
            self.scope.set(t, part)
            temps.append(t)
            names.append(ast.copy_location(ast.Name(t, ast.Load()), x))
        return ast.copy_location(ast.Slice(*names), x)


SLICE_CALLS = {slice: lambda p, e, n: p.call_slice(e, n)}
