"""Forward mode: ``jvp_graph(graph, argnums)``, a new graph that computes the primal
and, next to every active float value, its tangent.

The result is the primal graph copied, with one tangent parameter per argnum
appended (a float for a float parameter, a float64 array for an array parameter)
and every Return returning the primal values followed by their tangents.  Nothing is
unrolled and no tape is needed: control flow is the primal's, unchanged.

* **Scalars.** A value node with a rule in ``rules.PARTIALS`` gets the tangent
  ``sum_i p_i * xdot_i`` over its active operands (each product a ``ZMul``: a tangent
  that is exactly zero contributes zero, even times an inf partial) (a zero tangent is represented by
  None and materialised as ``0.0`` only where a Phi, a Store or a Return needs a
  value).  A Phi gets a tangent Phi on the same Region.
* **Arrays.** A float64 array whose elements may carry a derivative (an array
  argnum, or an array that an active value is stored into; arrays merged by a Phi
  count as one, since a store through the Phi writes either) gets a tangent array:
  the tangent parameter, a ``np.zeros`` next to its ``NewArray``, a tangent Phi next
  to its Phi (``np.zeros(len(a))`` for an array parameter that is not an argnum but
  aliases an active one).  A Load of an active array gets a Load of the tangent
  array with the same control, memory and index; a Store into one gets a Store of
  the value's tangent (0.0 for an inactive value) into the tangent array right
  after it on the memory chain (the primal Store's users read the tangent Store).
* Guards (If/Raise and their predicates), integers and bools carry no derivative.
  A float-valued node with no rule (``rules.NOT_DIFFERENTIABLE``, or a class the
  table does not know) through which a derivative flows is a ``SonError`` naming it.

``TANGENT_ARRAY_NODES`` lets another module register how an
array-producing node of its own (e.g. a tape that grows) gets its tangent array.

Costs: activity analysis is a worklist over def-use edges with a union-find over
array Phis, O(N + E) (near-linear); building the tangents is one iterative
post-order walk, O(N + E); every rule adds O(1) nodes, so the result has O(N) nodes.
"""

from __future__ import annotations

from typing import Callable

from ..errors import SonError
from ..nodes import (
    FLOAT,
    NE,
    Add,
    ArrayLen,
    ArrayType,
    Call,
    CallOut,
    Constant,
    CProj,
    GradVia,
    Graph,
    If,
    ListLen,
    ListOp,
    ListType,
    Load,
    NewArray,
    NewList,
    Node,
    Phi,
    Proj,
    Raise,
    Return,
    Store,
)
from ..nodes.control import LEAF
from ..nodes.memory import TapeGrow
from ..nodes.types import TupleType
from .calls import CallTangents
from .rules import (
    DISCRETE,
    NOT_DIFFERENTIABLE,
    PARTIALS,
    Builder,
    is_differentiable,
    product,
    refuse_active_regions,
)

__all__ = ["TANGENT_ARRAY_NODES", "jvp_graph", "tangent_params"]

F64 = ArrayType("float64")
FLIST = ListType("float64")
#: list methods whose tangent is the same method on the tangent list (an item's tangent
#: for the item); any other method of a list with tangents is refused
_MIRRORED = frozenset({"append", "insert", "pop", "reverse", "clear", "grow"})

#: class of a node that produces a float64 array from other arrays (e.g. a tape grown
#: into a bigger copy) -> ``fn(b, node, tangent_of) -> tangent array node``, where
#: ``tangent_of(x)`` is the tangent array of an input array ``x`` (registered by the
#: module that defines the class)
TANGENT_ARRAY_NODES: dict[type, Callable] = {}


def _tape_grow(b, n: Node, tangent_of: Callable[[Node], Node]) -> Node:
    """A tape grown (reverse mode's float tape) has the tangent tape grown alike."""
    return TapeGrow(b.graph, n.inputs[0], n.inputs[1], tangent_of(n.inputs[2]), n.inputs[3])


TANGENT_ARRAY_NODES[TapeGrow] = _tape_grow


def _is_f64(n: Node | None) -> bool:
    return n is not None and n.type == F64


def float_list(t) -> bool:
    """Is ``t`` a list of floats, or of lists of ... of floats (items carry derivatives)?"""
    while isinstance(t, ListType):
        t = t.dtype
    return t == "float64"


def tangent_params(graph: Graph, argnums: tuple[int, ...]) -> list[tuple[str, object]]:
    """The tangent parameters ``jvp_graph`` appends: ``(name, type)`` per argnum.
    Raises ``SonError`` for an argnum that is out of range or not float / float64[]."""
    names = {n for n, _ in graph.params}
    form = next((r.form for r in graph.returns() if r.form is not None), None)
    if form is not None:
        what = {"complex": "a complex number", "range": "a range"}.get(form, "a nested tuple")
        raise SonError(f"{graph.name}: the function returns {what}; derivatives are taken of float "
                       "results (complex numbers are not differentiated: return the parts)")
    out = []
    for k in argnums:
        if not isinstance(k, int) or not -len(graph.params) <= k < len(graph.params):
            raise SonError(f"{graph.name}: argnum {k!r} is not a parameter index "
                           f"({len(graph.params)} parameters)")
        name, t = graph.params[k]
        if not (t == FLOAT or t == F64 or t == FLIST):
            raise SonError(f"{graph.name}: cannot differentiate with respect to parameter {name!r} of type "
                           f"{t}: only float, float64-array and list[float] parameters carry derivatives")
        d = f"{name}_dot"
        while d in names:
            d += "_"
        names.add(d)
        out.append((d, t))
    return out


def _norm_argnums(graph: Graph, argnums) -> tuple[int, ...]:
    ks = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    m = len(graph.params)
    out = tuple(k % m if isinstance(k, int) and -m <= k < 0 else k for k in ks)
    if len(set(out)) != len(out):
        raise SonError(f"{graph.name}: argnums {argnums!r} repeat a parameter")
    return out


class _UnionFind:
    def __init__(self):
        self.parent: dict[Node, Node] = {}

    def find(self, x: Node) -> Node:
        p = self.parent.setdefault(x, x)
        root = x
        while p is not root:
            root, p = p, self.parent.setdefault(p, p)
        while x is not root:  # path compression
            self.parent[x], x = root, self.parent[x]
        return root

    def union(self, a: Node, b: Node) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra is not rb:
            self.parent[ra] = rb


def jvp_graph(graph: Graph, argnums: tuple[int, ...] | int, memo: dict | None = None) -> Graph:
    """The forward-mode derivative of ``graph`` with respect to the parameters
    ``argnums``: parameters ``(*primal, *tangents)``, returns ``(*values, *tangents)``
    (``(value, tangent)`` for a one-value graph).  ``graph`` is not changed.  Its calls
    call the tangent functions of their callees (son/grad/calls.py), made once per
    callee in ``memo``."""
    argnums = _norm_argnums(graph, argnums)
    tparams = tangent_params(graph, argnums)
    g = graph.copy()
    _Forward(g, argnums, tparams, graph, memo).run()
    if g.arg_forms is not None:  # each tangent is one parameter (an n-D one flattened by the caller)
        g.arg_forms = list(g.arg_forms) + [LEAF] * len(tparams)
    return g


class _Forward(CallTangents):
    def __init__(self, g: Graph, argnums: tuple[int, ...], tparams: list, source: Graph,
                 memo: dict | None = None):
        self.g = g
        self.argnums = argnums
        self.tparams = tparams
        self.b = Builder(g)
        self._init_calls(source, memo)
        self.tan: dict[Node, Node | None] = {}  # value -> tangent (None: zero)
        self.atan: dict[Node, Node] = {}  # active float64 array -> its tangent array
        self.phis: list[tuple[Phi, Phi]] = []  # (primal phi, tangent phi) to fill

    # ------------------------------------------------------------------ activity
    def _activity(self, nodes: list[Node]) -> tuple[set[Node], set[Node]]:
        """(active values, active arrays): values a derivative can reach from the
        argnums, and the float64 arrays that may hold such values."""
        g = self.g
        uf = _UnionFind()
        for n in nodes:  # a store through a Phi (or a grown tape) may write any of its arrays
            if (type(n) is Phi or type(n) in TANGENT_ARRAY_NODES) and _is_f64(n):
                for x in n.inputs[1:]:
                    if _is_f64(x):
                        uf.union(n, x)
        members: dict[Node, list[Node]] = {}
        for n in nodes:
            if _is_f64(n):
                members.setdefault(uf.find(n), []).append(n)
        active: set[Node] = set()
        arrays: set[Node] = set()
        work: list[Node] = []
        lists = [n for n in nodes if float_list(n.type)]  # one alias class: see _activate_lists

        def activate_array(a: Node) -> None:
            for m in members.get(uf.find(a), [a]):
                if m not in arrays:
                    arrays.add(m)
                    work.append(m)

        def activate_lists() -> None:
            for m in lists:
                if m not in active:
                    active.add(m)
                    work.append(m)

        for k in self.argnums:
            p = g.param(k)
            if p is None:
                continue
            if _is_f64(p):
                activate_array(p)
            elif float_list(p.type):
                activate_lists()
            else:
                active.add(p)
                work.append(p)
        if any(float_list(v.type) for r in g.returns() for v in r.values):
            activate_lists()  # a returned list returns its tangent list
        while work:
            n = work.pop()
            for u in list(n.outputs):
                t = type(u)
                if t is Store:
                    if u.inputs[4] is n and n in active and _is_f64(u.inputs[2]):
                        activate_array(u.inputs[2])
                    elif u.inputs[4] is n and is_differentiable(n) and float_list(u.inputs[2].type):
                        activate_lists()
                    continue
                if t is ListOp or t is NewList:  # an active item put into a list
                    if (u.inputs[2] is n) == (t is NewList) and is_differentiable(n):
                        activate_lists()
                    continue
                if t is Load:
                    if u.inputs[2] is n and (n in arrays or float_list(n.type)) and is_differentiable(u) \
                            and u not in active:
                        active.add(u)
                        work.append(u)
                    continue
                if t is ListLen:
                    continue
                if t is Call:  # the callee may read it, and write active values into its arrays
                    if u not in active:
                        _refuse_array_result(g, u)
                        for x in u.inputs[2:]:
                            if float_list(x.type):
                                raise SonError(f"{g.name}: not yet differentiable: a call that passes a "
                                               "list of floats carrying derivatives")
                            if _is_f64(x):
                                activate_array(x)
                        active.add(u)
                        work.append(u)
                    continue
                if t is CallOut:
                    if u not in active and is_differentiable(u):
                        active.add(u)
                        work.append(u)
                    continue
                if _is_f64(u):
                    if u not in arrays and (t is Phi or t in TANGENT_ARRAY_NODES):
                        activate_array(u)
                    continue
                if u in active or not is_differentiable(u) or u.is_cfg or n in arrays:
                    continue
                if t is Phi and u.inputs[0] is not n:
                    active.add(u)
                    work.append(u)
                elif t in PARTIALS:
                    active.add(u)
                    work.append(u)
                elif t in DISCRETE:
                    continue
                elif t in NOT_DIFFERENTIABLE or t not in (Return, ArrayLen, Constant):
                    raise SonError(f"{g.name}: cannot differentiate through {u!r} ({t.__name__}): "
                                   "no derivative rule for it (son.grad.rules.PARTIALS)")
        return active, arrays

    # ------------------------------------------------------------------ building
    def run(self) -> None:
        g, b = self.g, self.b
        nodes = g.nodes()
        active, arrays = self._activity(nodes)
        refuse_active_regions(g, active | set(arrays))
        # the tangent parameters
        g.params = g.params + self.tparams
        g.start.arg_types = tuple(t for _, t in g.params)
        g.start.type = g.start.compute()
        n0 = len(g.params) - len(self.tparams)
        tparam_of: dict[int, Node] = {}
        for j, (k, (name, _)) in enumerate(zip(self.argnums, self.tparams)):
            tparam_of[k] = b.pin(Proj(g, g.start, 2 + n0 + j, name))
        entry = next(u for u in g.start.outputs if type(u) is CProj and u.index == 0)
        self.mem0 = next((u for u in g.start.outputs if type(u) is Proj and u.index == 1), None) or \
            b.pin(Proj(g, g.start, 1, "mem"))
        # tangent arrays first (phis with their inputs filled in at the end), then scalar phis
        for a in sorted(arrays, key=lambda n: n.nid):
            t = type(a)
            if t is Proj:
                k = a.index - 2
                self.atan[a] = tparam_of[k] if k in tparam_of else b.pin(
                    NewArray(g, entry, b.node(ArrayLen, a), "float64", "zeros"))
            elif t is NewArray:
                self.atan[a] = b.pin(NewArray(g, a.inputs[0], a.inputs[1], "float64", "zeros"))
            elif t is Phi:
                self.atan[a] = self._phi(a, F64)
        for n in sorted(active, key=lambda n: n.nid):
            if type(n) is Phi:
                self.tan[n] = self._phi(n, n.type if float_list(n.type) else FLOAT)
            elif type(n) is Proj:
                k = n.index - 2
                self.tan[n] = tparam_of[k] if k in tparam_of else self._zero_list_param(n, entry)
        self._check_lengths(entry, tparam_of)
        for a in sorted(arrays, key=lambda n: n.nid):
            if a not in self.atan:  # an array-producing node registered by another module
                if type(a) in (Call, CallOut):  # a call's array that derivatives are stored into
                    _refuse_array_result(g, a if type(a) is Call else a.inputs[1])
                self.atan[a] = b.pin(TANGENT_ARRAY_NODES[type(a)](b, a, self.atan.__getitem__))
        # every other active value, inputs first (iterative post-order; phis are roots)
        for root in sorted(active, key=lambda n: n.nid):
            stack = [(root, False)]
            while stack:
                n, ready = stack.pop()
                if n in self.tan:
                    continue
                if not ready:
                    stack.append((n, True))
                    stack.extend((x, False) for x in n.inputs[1:] if x in active and x not in self.tan)
                    continue
                self.tan[n] = self._tangent(n)
        # stores into active arrays, then the phis' inputs, then the returns
        for s in [n for n in nodes if (type(n) is Store and n.inputs[2] in arrays)
                  or (type(n) in (Store, ListOp) and n.inputs[2] in active)]:
            self._store(s)
        for p, tp in self.phis:
            for i, x in enumerate(p.inputs[1:], 1):
                tp.set_input(i, self.atan[x] if tp.type == F64 else self._value(x))
            tp.type = tp.compute()
        for i, r in enumerate(list(g.stop.inputs)):
            if type(r) is Return:
                vals = r.values
                tans = [self._out_tangent(r, v) for v in vals]
                g.stop.set_input(i, Return(g, r.inputs[0], r.inputs[1], *vals, *tans))
        self.replace_calls()  # after every tangent is read off its primal value
        for n in nodes:  # a float sum's value, its tangent that of its surrogate
            if type(n) is GradVia and n.inputs is not None:
                n.subsume(n.inputs[1])
        b.release()
        g.dce()
        if g.drop_unread_stores():
            g.dce()

    def _check_lengths(self, entry: Node, tparam_of: dict[int, Node]) -> None:
        """At entry: ``if len(a_dot) != len(a): raise ValueError`` for each array argnum,
        so that a tangent array is never read out of its bounds."""
        g, b = self.g, self.b
        for k, td in tparam_of.items():
            p = g.param(k)
            if not (_is_f64(td) or float_list(td.type)) or p is None:
                continue
            users = [u for u in entry.outputs]
            if _is_f64(td):
                n, nd = b.node(ArrayLen, p), b.node(ArrayLen, td)
            else:
                n, nd = b.node(ListLen, entry, self.mem0, p), b.node(ListLen, entry, self.mem0, td)
            test = If(g, entry, b.node(NE, n, nd))
            bad, ok = CProj(g, test, 0), CProj(g, test, 1)
            g.stop.add_input(Raise(g, bad, self.mem0, ValueError,
                                   f"tangent {td.name!r} must have the length of {p.name!r}"))
            for u in users:
                for i, x in enumerate(u.inputs):
                    if x is entry and not (u is test and i == 0):
                        u.set_input(i, ok)
            entry = ok
        self.entry = entry

    def _phi(self, p: Phi, t) -> Phi:
        tp = self.b.pin(Phi(self.g, p.inputs[0], *[None] * (len(p.inputs) - 1), assumed=t))
        self.phis.append((p, tp))
        return tp

    def _value(self, x: Node) -> Node:
        """The tangent of ``x`` as a node (0.0 where it is zero)."""
        t = self.tan.get(x)
        return t if t is not None else self.b.const(0.0)

    def _zero_list_param(self, p: Node, entry: Node) -> Node:
        """The tangent list of a list parameter that is not differentiated: zeros of its
        length at entry (a list of lists would need its rows: refused)."""
        if p.type != FLIST:
            raise SonError(f"{self.g.name}: not yet differentiable: parameter {p.name!r} of type {p.type} "
                           "is a list of lists beside lists that carry derivatives (pass list[float] "
                           "parameters, or build the table inside the function)")
        b = self.b
        return b.pin(NewList(self.g, entry, b.node(ListLen, entry, self.mem0, p), b.const(0.0), "float64"))

    def _tangent(self, n: Node) -> Node | None:
        b, t = self.b, type(n)
        if t is Call or t is CallOut:
            return self.call_tangent(n)
        if t is Load:
            lst = n.inputs[2]
            shadow = self.atan[lst] if lst in self.atan else self.tan[lst]
            return b.pin(Load(self.g, n.inputs[0], n.inputs[1], shadow, n.inputs[3]))
        if t is NewList:  # ``[v] * n`` has ``[vdot] * n`` (a row repeated: its tangent row repeated)
            fill = n.inputs[2]
            fdot = self.tan[fill] if float_list(fill.type) else self._item_tangent(fill)
            return b.pin(NewList(self.g, n.inputs[0], n.inputs[1], fdot, n.dtype))
        ps = PARTIALS[t](b, n, list(n.inputs), n)
        terms = []
        for x, p in zip(n.inputs, ps):
            xdot = self.tan.get(x) if x is not None else None
            if p is None or xdot is None:
                continue
            terms.append(product(b, p, xdot))  # a zero tangent contributes zero, even times inf
        if not terms:
            return None
        acc = terms[0]
        for x in terms[1:]:
            acc = b.node(Add, acc, x)
        return acc

    def _item_tangent(self, v: Node) -> Node:
        """The tangent of ``v`` put into an array or a list: its tangent list for a row."""
        if float_list(v.type):
            return self.tan[v]
        return self._value(v) if is_differentiable(v) else self.b.const(0.0)

    def _store(self, s: Node) -> None:
        """The tangent Store (or list method) after ``s``, on the tangent array or list:
        ``s``'s users read the tangent one's memory instead."""
        lst = s.inputs[2]
        shadow = self.atan[lst] if lst in self.atan else self.tan[lst]
        if type(s) is Store:
            sd = Store(self.g, s.inputs[0], s, shadow, s.inputs[3], self._item_tangent(s.inputs[4]))
        else:
            m = s.method
            if m in ("sort", "sort_reverse"):
                raise SonError(f"{self.g.name}: not yet differentiable: sorting a list whose items carry "
                               "derivatives (list.sort / sorted: the tangent would need the permutation "
                               "the sort took)")
            if m not in _MIRRORED:
                raise SonError(f"{self.g.name}: not yet differentiable: list.{m} of a list whose items "
                               "carry derivatives")
            args = list(s.inputs[3:])
            if m in ("append", "insert"):
                args[-1] = self._item_tangent(args[-1])
            sd = ListOp(self.g, s.inputs[0], s, shadow, *args, method=m)
        sd.keep()
        for u in list(s.outputs):
            if u is not sd:
                for i, x in enumerate(u.inputs):
                    if x is s:
                        u.set_input(i, sd)
        sd.unkeep()

    def _out_tangent(self, r: Return, v: Node) -> Node:
        if _is_f64(v):
            if v in self.atan:
                return self.atan[v]
            return self.b.pin(NewArray(self.g, r.inputs[0], self.b.node(ArrayLen, v), "float64", "zeros"))
        if float_list(v.type):
            return self.tan[v]
        if isinstance(v.type, ArrayType):
            raise SonError(f"{self.g.name}: returns a {v.type} array, which has no tangent (only float64 "
                           "arrays do)")
        if isinstance(v.type, ListType):
            raise SonError(f"{self.g.name}: returns a {v.type}, which has no tangent (only lists of floats "
                           "do)")
        return self._value(v)


def _refuse_array_result(g: Graph, call: Node) -> None:
    """A derivative flows into ``call`` or into the array it gives: refused (located)
    where it gives an array back, whose tangent array the tangent function does not
    return yet (the result would be read as carrying no derivative: a silent wrong
    gradient)."""
    values = call.result.elems if isinstance(call.result, TupleType) else (call.result,)
    if not any(isinstance(v, (ArrayType, ListType)) for v in values):
        return
    line = g.lines.get(call.nid)
    at = f"{g.source[0]}:{line}: " if g.source and line is not None else ""
    raise SonError(f"{at}{g.name}: not yet differentiable: the recursive call of {call.callee_name}() "
                   "returns an array and a derivative flows into it (son differentiates through "
                   "recursive calls that return numbers; write the recursion as a loop)")
