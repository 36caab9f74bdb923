"""numpy's read-only views: ``np.diagonal``/``a.diagonal()``/``np.diag`` of a 2-D array
and ``np.broadcast_to`` give views numpy refuses to write through (``ValueError:
assignment destination is read-only``), while the array they view stays writable.

While the function is parsed, such a view reads its array through a ``ReadOnly`` node,
an alias of the array's node (``ReadOnlyViews.read_only``).  Every view made from it (a
slice, a transpose, a view passed to an inlined helper) keeps the alias as its base, as
views keep their base, and writes through the array itself keep the array's own node:
so a write through the read-only view is a write whose array is the alias, or a Phi
that may be it.  Once the function is parsed, ``check_read_only`` refuses (a located
``SonSyntaxError`` at the view) any node that writes memory (a store, a call of a
separate graph, a fallback region) with such an array, then replaces each alias by its
array: the finished graph has no ``ReadOnly`` node.  A refusal, not numpy's ValueError
at the write: the write may be on a path CPython never takes, and son cannot raise
where it does without carrying the flag at run time.

An argument numpy has made read-only (``np.broadcast_to(x, shape)`` passed in) is the
kernel's business: son.jit runs CPython for it where the kernel writes its arguments
(son/driver/kernels.py).

Cost: O(1) nodes per view; the check O(nodes + Phis walked per writer).
"""

from __future__ import annotations

import ast

from ..nodes import Graph, Node, Phi
from ..nodes.types import ArrayType

#: the graph attribute holding the (alias, error) of each read-only view of the parse
_VIEWS = "read_only_views"


class ReadOnly(Node):
    """``inputs[1]``, an array, seen through a read-only view; parse-time only."""

    __slots__ = ()
    is_gvn = False

    def compute(self):
        return self.inputs[1].type


class ReadOnlyViews:
    """``FunctionParser``'s read-only views (a mixin)."""

    def read_only(self, at: ast.AST, view, name: str):
        """``view`` (a ``View`` or ``Grid``) reading its base through a new alias (see the
        module docstring)."""
        alias = ReadOnly(self.g, None, view.elems[0])
        err = self.unsupported(at, f"a write through the read-only view {name}() gives (numpy raises "
                                   "ValueError there; son refuses what may write through it)")
        self.g.__dict__.setdefault(_VIEWS, []).append((alias, err))
        return view.rebuilt([alias, *view.elems[1:]])


def check_read_only(g: Graph) -> None:
    """Refuse a write that may go through a read-only view, then put each alias's array
    in its place (see the module docstring)."""
    views = g.__dict__.pop(_VIEWS, None)
    if not views:
        return
    aliases = {alias: err for alias, err in views if not alias.dead}
    for n in g.nodes():
        if n.writes_memory:
            for x in n.inputs[2:]:
                hit = _alias_in(x, aliases)
                if hit is not None:
                    raise aliases[hit]
    for alias in aliases:
        alias.subsume(alias.inputs[1])


def _alias_in(x: Node | None, aliases: dict) -> Node | None:
    """The alias array ``x`` is, or one a Phi ``x`` merges may be; else None."""
    if x is None or not isinstance(x.type, ArrayType):
        return None
    stack, seen = [x], set()
    while stack:
        y = stack.pop()
        if y in aliases:
            return y
        if type(y) is Phi and y not in seen:
            seen.add(y)
            stack.extend(z for z in y.inputs[1:] if z is not None)
    return None
