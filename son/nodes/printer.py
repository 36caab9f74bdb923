"""Text IR: a stable, readable listing of a graph.

The CFG is printed in reverse postorder from Start, one line per control
node; pure data nodes with a single user are inlined as expressions
(``(a+1)``), shared ones get a line ``%7 = (a*b)`` before their first use;
constants and parameters print as themselves.  A straight-line function
prints as one line, ``return (a+1)``, which is what tests compare against.
All walks are iterative.  O(N + E).
"""

from __future__ import annotations

from .arith import Binary, Constant, Unary
from .control import CFGNode, CProj, If, Loop, Phi, Proj, Raise, Region, Return, Start, Stop, XCtrl
from .node import Node
from .types import BOTTOM, NONE, TOP

_INLINE_DEPTH = 12


def _is_atom(n: Node) -> bool:
    return type(n) in (Constant, Proj, XCtrl) or isinstance(n, CFGNode)


def _effectful(n: Node) -> bool:
    return n.reads_memory or n.writes_memory or n.allocates


def _is_leaf(n: Node) -> bool:
    """Printed by name only: atoms, and Phis and memory nodes (defined on their own line)."""
    return _is_atom(n) or type(n) is Phi or _effectful(n)


class _Printer:
    def __init__(self, graph, types: bool):
        self.g = graph
        self.types = types
        self.text: dict[Node, str] = {}
        self.depth: dict[Node, int] = {}
        self.defined: set[Node] = set()
        self.lines: list[str] = []

    # -- expressions ------------------------------------------------------------
    def _named(self, n: Node) -> bool:
        """Print ``n`` as ``%id`` (defined on its own line) instead of inline."""
        return len(n.outputs) > 1 or sum(n.outputs.values()) > 1 or self.depth.get(n, 0) > _INLINE_DEPTH

    def ref(self, n: Node | None) -> str:
        """The text for a use of ``n``, emitting definitions it needs first."""
        if n is not None and not _is_leaf(n):
            self._emit_defs(n)
        return self._arg(n)

    def _atom(self, n: Node) -> str:
        if type(n) is Constant:
            return n.label
        if type(n) is Proj:
            return n.name
        if type(n) is XCtrl:
            return "~ctrl"
        if type(n) is CProj and type(n.inputs[0]) is Start:
            return "start"
        return f"%{n.nid}"

    def _emit_defs(self, root: Node) -> None:
        """Post-order over the expression below ``root`` (explicit stack)."""
        stack = [(root, False)]
        while stack:
            n, done = stack.pop()
            if n in self.text or _is_leaf(n):
                continue
            if not done:
                stack.append((n, True))
                for x in n.inputs[1:]:
                    if x is not None and x not in self.text and not _is_leaf(x):
                        stack.append((x, False))
                continue
            self.text[n] = self._expr(n)
            self.depth[n] = 1 + max((self.depth.get(x, 0) for x in n.inputs[1:] if x is not None), default=0)
            if self._named(n) and n not in self.defined:
                self.defined.add(n)
                self._line(f"%{n.nid} = {self.text[n]}", n)

    def _arg(self, x: Node | None) -> str:
        if x is None:
            return "_"
        if _is_atom(x):
            return self._atom(x)
        return f"%{x.nid}" if _is_leaf(x) or self._named(x) else self.text[x]

    def _expr(self, n: Node) -> str:
        a = [self._arg(x) for x in n.inputs[1:]]
        if isinstance(n, Binary) and n.label.isalpha():
            return f"{n.label}({a[0]}, {a[1]})"
        if isinstance(n, Binary):
            op = " % " if n.label == "%" else n.label  # spaced: `a%%8` would be ambiguous
            return f"({a[0]}{op}{a[1]})"
        if isinstance(n, Unary):
            return f"{n.label}({a[0]})" if n.label[-1].isalpha() else f"({n.label}{a[0]})"
        return f"{n.label}({', '.join(a)})"

    # -- lines ------------------------------------------------------------------
    def _line(self, s: str, n: Node | None = None, indent: int = 1) -> None:
        if self.types and n is not None:
            s = f"{s:<40} : {n.type}"
        self.lines.append("  " * indent + s)

    def _effects(self, c: Node) -> None:
        """Memory nodes pinned to control node ``c``, in id order."""
        for u in sorted((u for u in c.outputs if _effectful(u)), key=lambda u: u.nid):
            if u in self.defined:
                continue
            args = ", ".join(self.ref(x) for x in u.inputs[1:])
            self.defined.add(u)
            self.text[u] = f"%{u.nid}"
            self._line(f"%{u.nid} = {u.label}({args})", u)

    def cfg_order(self) -> list[Node]:
        """CFG nodes in reverse postorder from Start (iterative DFS)."""
        succ: dict[Node, list[Node]] = {}
        for n in self.g.nodes():
            if isinstance(n, CFGNode) and not isinstance(n, (Start, XCtrl)):
                preds = n.inputs[1:] if isinstance(n, (Region, Stop)) else n.inputs[:1]
                for p in preds:
                    if p is not None:
                        succ.setdefault(p, []).append(n)
        for v in succ.values():
            v.sort(key=lambda x: x.nid)
        order, seen = [], {self.g.start}
        stack = [(self.g.start, iter(succ.get(self.g.start, ())))]
        while stack:
            n, it = stack[-1]
            for s in it:
                if s not in seen:
                    seen.add(s)
                    stack.append((s, iter(succ.get(s, ()))))
                    break
            else:
                stack.pop()
                order.append(n)
        order.reverse()
        return order

    def run(self) -> list[str]:
        mem0 = next((u for u in self.g.start.outputs if type(u) is Proj and u.index == 1), None)
        for c in self.cfg_order():
            t = type(c)
            if t is Start or t is Stop or (t is CProj and type(c.inputs[0]) is Start):
                self._effects(c)
                continue
            if isinstance(c, Region):
                preds = ", ".join(self._atom(p) if p is not None else "_" for p in c.inputs[1:])
                self._line(f"%{c.nid} {'loop' if t is Loop else 'region'}({preds})", c)
                for p in sorted(c.phis(), key=lambda p: p.nid):
                    vals = ", ".join(self.ref(v) for v in p.inputs[1:])
                    self.defined.add(p)
                    self.text[p] = f"%{p.nid}"
                    self._line(f"%{p.nid} = phi({vals})", p, indent=2)
            elif t is If:
                self._line(f"%{c.nid} if {self.ref(c.pred)}  [from {self._atom(c.inputs[0])}]", c)
            elif t is CProj:
                self._line(f"%{c.nid} {c.label.lower()}(%{c.inputs[0].nid})", c)
            elif t is Return:
                mem = "" if c.inputs[1] is mem0 else f"  [mem {self.ref(c.inputs[1])}]"
                where = "" if self._straight() else f"  [from {self._atom(c.inputs[0])}]"
                self._line(f"return {', '.join(self.ref(v) for v in c.values)}{mem}{where}", c)
            elif t is Raise:
                exc = f"{c.exc.__name__}({c.message!r})"
                self._line(f"%{c.nid} raise {exc}  [from {self._atom(c.inputs[0])}]", c)
            self._effects(c)
        return self.lines

    def _straight(self) -> bool:
        """True for a graph whose only control is start -> return."""
        rets = self.g.stop.inputs
        return len(rets) == 1 and type(rets[0]) is Return and type(rets[0].inputs[0]) is CProj \
            and type(rets[0].inputs[0].inputs[0]) is Start


def ir(graph, types: bool = False) -> str:
    """The body of the listing (no header): ``return (a+1)`` for straight-line code."""
    lines = _Printer(graph, types).run()
    return "\n".join(line[2:] for line in lines)


def _result(graph) -> str:
    """The result type: ``float | None`` where some Returns give None and the others a
    value of one kind (a function that returns a value or None)."""
    rets = graph.returns()
    if len(rets) > 1 and all(len(r.values) == 1 for r in rets):
        ts = [r.values[0].type for r in rets]
        if NONE in ts:
            t = TOP
            for x in ts:
                if x is not NONE:
                    t = t.meet(x)
            if t is not TOP and t is not BOTTOM:
                return f"{t} | None"
    return str(graph.return_type)


def format_graph(graph, types: bool = False) -> str:
    """The listing of ``graph`` and, after it, of each graph it calls (its module)."""
    out = []
    for g in [graph, *graph.callees()]:
        params = ", ".join(f"{n}: {t}" for n, t in g.params)
        out.append("\n".join([f"def {g.name}({params}) -> {_result(g)}:", *_Printer(g, types).run()]))
    return "\n\n".join(out)
