"""Branch refinement: a value seen on one arm of a branch, typed by what the branch implies.

``Refine(ctrl, x, y, op)`` is ``x`` itself on the control path ``ctrl`` (a
projection of an ``If``, or a block it dominates), where ``x op y`` is known
to hold: on the true arm of ``if i < n:`` the frontend rebinds ``i`` to
``Refine(true, i, n, "lt")``, whose type is ``i``'s type met with
``[min, n.hi - 1]``.  It is Simple's ``CastNode`` and Graal's ``PiNode``:
pinned to its control (so no pass hoists it above the test), an identity for
the interpreter and for code generation, and a type that only the branch
justifies.  ``i + 1`` on that arm then provably does not wrap, which is what
lets a loop counter's range start at its first value (son/nodes/ranges.py).

Only ints and bools are refined.  Floats are not: ``x == 0.0`` does not fix
``x`` (it may be ``-0.0``), an order test tells nothing when it is false
(NaN), and replacing a float by the constant it equals would change its
derivative.  A refinement that adds nothing folds away (peephole rule
``refine_adds_nothing``); one that narrows to a single value folds to that
constant.

Cost: ``compute`` is O(1); ``implied_facts`` is O(chain of ``not``).
"""

from __future__ import annotations

from .arith import EQ, GE, GT, LE, LT, NE, SWAPPED, Not, ToBool
from .memory import Load, Store
from .node import Node
from .types import TOP, XCTRL, Type, bounds, constant, int_range

__all__ = ["OPS", "Refine", "implied_facts", "refined", "unrefined", "without_refinements"]

#: comparison class -> the op a Refine records
OPS = {EQ: "eq", NE: "ne", LT: "lt", LE: "le", GT: "gt", GE: "ge"}
#: an int comparison that is false is its negation that is true (no NaN among ints)
_NEGATED = {EQ: NE, NE: EQ, LT: GE, GE: LT, LE: GT, GT: LE}


def refined(x: Type, op: str, y: Type) -> Type:
    """``x``'s type where ``x op y`` holds (x and y ints or bools), else ``x``.  An
    impossible fact (the arm is dead) leaves ``x``: dead code needs no precision."""
    xb, yb = bounds(x), bounds(y)
    if xb is None or yb is None or x.kind not in ("int", "bool"):
        return x
    lo, hi = xb
    if op == "eq":
        lo, hi = max(lo, yb[0]), min(hi, yb[1])
    elif op == "lt":
        hi = min(hi, yb[1] - 1)
    elif op == "le":
        hi = min(hi, yb[1])
    elif op == "gt":
        lo = max(lo, yb[0] + 1)
    elif op == "ge":
        lo = max(lo, yb[0])
    elif op == "ne" and yb[0] == yb[1]:
        if lo == yb[0]:
            lo += 1
        if hi == yb[0]:
            hi -= 1
    if lo > hi or (lo, hi) == xb:
        return x
    if x.kind == "bool":
        return constant(bool(lo)) if lo == hi else x
    return int_range(lo, hi)


class Refine(Node):
    """``x`` where ``x op y`` is known; see the module docstring."""

    __slots__ = ("op",)

    def __init__(self, graph, ctrl: Node, x: Node, y: Node, op: str):
        assert op in ("eq", "ne", "lt", "le", "gt", "ge"), op
        self.op = op
        super().__init__(graph, ctrl, x, y)

    def payload(self) -> tuple:
        return (self.op,)

    @property
    def label(self) -> str:
        return f"refine[{self.op}]"

    def eval(self, x, y):
        return x

    def compute(self) -> Type:
        c = self.inputs[0]
        x, y = self.inputs[1].type, self.inputs[2].type
        if (c is not None and c.type is XCTRL) or x is TOP:
            return TOP
        if y is TOP:
            return x
        return refined(x, self.op, y)


def unrefined(n: Node) -> Node:
    """``n`` without its refinements: the value a chain of ``Refine`` stands for."""
    while type(n) is Refine:
        n = n.inputs[1]
    return n


def implied_facts(cond: Node, truth: bool) -> list[tuple[Node, str, Node | bool | int]]:
    """What ``cond`` having truth ``truth`` says about the ints and bools it tests:
    ``(x, op, y)`` for ``x op y``, ``y`` a node or a Python constant (the frontend makes
    it a node).  Comparisons (negated when false; both operands refined), ``bool(x)``
    of an int (``x != 0`` / ``x == 0``), a bool value itself (``x == truth``)."""
    while type(cond) is Not:
        cond, truth = cond.inputs[1], not truth
    t = type(cond)
    if t in OPS:
        a, b = cond.inputs[1], cond.inputs[2]
        if bounds(a.type) is None or bounds(b.type) is None:
            return []
        if not truth:
            t = _NEGATED[t]
        return [(a, OPS[t], b), (b, OPS[SWAPPED[t]], a)]
    if t is ToBool and bounds(cond.inputs[1].type) is not None:
        return [(cond.inputs[1], "ne" if truth else "eq", 0)]
    if cond.type.kind == "bool" and not cond.type.is_constant:
        return [(cond, "eq", truth)]
    return []


def without_refinements(graph, keep_indices: bool = False):
    """``graph``, or a copy of it (same node ids) in which every ``Refine`` is replaced by
    its input: for code generation, where a refinement is only a name for the same value.
    With ``keep_indices``, a refinement read only as the index of array accesses and
    proving it non-negative where its input's type does not stays: codegen passes such
    an index to numba unsigned (loop versioning's fast copies, ``if i >= 0: a[i]``).
    Nodes that become equal (``s + refine(i)`` on two arms is ``s + i`` twice) are value
    numbered into one, whose type is the meet of theirs (each was a fact only where its
    refinement held; the meet holds everywhere).  Every other node keeps the type the
    refinement helped compute, a fact about its value where it is used.  O(N) to find
    out; O(N + E) for the copy and the renumbering."""
    if not any(type(n) is Refine and not (keep_indices and _index_fact(n)) for n in graph.nodes()):
        return graph
    g = graph.copy()
    work: list = []
    for n in [n for n in g.nodes() if type(n) is Refine and not (keep_indices and _index_fact(n))]:
        if n.inputs is not None:
            work.extend(n.outputs)
            n.subsume(n.inputs[1])
    while work:
        n = work.pop()
        if n.inputs is None or not n.is_gvn or n.is_cfg or n._gvn_key is not None:
            continue
        k = n.key()
        other = g.gvn.get(k)
        if other is None or other is n or other.inputs is None:
            g.gvn[k] = n
            n._gvn_key = k
            continue
        other.type = other.type.meet(n.type)
        work.extend(n.outputs)
        n.subsume(other)
    g.dce()
    return g


def _index_fact(n: Refine) -> bool:
    """Whether ``n`` is read only as an array access's index (input 3 of a ``Load`` or a
    ``Store``) and makes it non-negative where its unrefined input may be negative."""
    b, raw = bounds(n.type), bounds(unrefined(n).type)
    if b is None or b[0] < 0 or raw is None or raw[0] >= 0 or not n.outputs:
        return False
    return all(type(u) in (Load, Store) and u.inputs[3] is n
               and all(x is not n for x in u.inputs[4:]) for u in n.outputs)
