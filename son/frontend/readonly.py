"""numpy's read-only views: ``np.diagonal``/``a.diagonal()``/``np.diag`` of a 2-D array
and ``np.broadcast_to`` give views numpy refuses to write through (``ValueError:
assignment destination is read-only``).  son's views carry no such flag, so a write
through one would change the array where CPython raises: instead the parse notes each
read-only view (``ReadOnlyViews.read_only``) and, once the function is parsed,
``check_read_only`` refuses (a located ``SonSyntaxError`` at the view) a function that
may write into the array the view shares after it is made: any node that writes memory
(a store, a call of a separate graph, a fallback region) whose array may be that array
(``scope.may_alias``).  "After" is parse order (node ids grow as nodes are made) for a
view made in straight-line code of the compiled function; for one made in a loop or an
inlined helper every write counts (a write parsed earlier may run in a later round).
This is sound and conservative: writing the array itself after taking its diagonal is
refused too.

An argument numpy has made read-only (``np.broadcast_to(x, shape)`` passed in) is the
kernel's business: son.jit runs CPython for it (son/driver/kernels.py).

Cost: O(1) per view; the check O(nodes x views).
"""

from __future__ import annotations

import ast

from ..nodes import Graph, Node
from ..nodes.types import ArrayType
from .scope import base_of, may_alias

#: the graph attribute holding (base, first node id that may write through it, error)
_VIEWS = "read_only_views"


class ReadOnlyViews:
    """``FunctionParser``'s note of read-only views (a mixin)."""

    def read_only(self, at: ast.AST, view, name: str):
        """``view`` as it is, noted read-only (see the module docstring)."""
        in_loop = bool(self.loops) or len(self.stack) > 1
        first = 0 if in_loop else self.g._next_id
        err = self.unsupported(at, f"a write into the array that {name}() views (numpy's view is read-only, "
                                   "and son does not tell it from a writable view of the same array)")
        self.g.__dict__.setdefault(_VIEWS, []).append((base_of(view), first, err))
        return view


def check_read_only(g: Graph) -> None:
    """Raise the error of a read-only view the graph may write through (see the module
    docstring)."""
    views = g.__dict__.get(_VIEWS)
    if not views:
        return
    writers = [n for n in g.nodes() if n.writes_memory]
    for base, first, err in views:
        for n in writers:
            if n.nid >= first and any(_may_write(x, base) for x in n.inputs[2:]):
                raise err


def _may_write(x: Node | None, base: Node) -> bool:
    return x is not None and isinstance(x.type, ArrayType) and may_alias(x, base)
