"""Derivatives through calls: forward mode passes tangents into calls and gets them
back with the values, and ``son.grad`` of a function that calls is built on it.

A ``Call`` (of the graph itself, or of a recursive helper's graph: son/frontend/
recursion.py) through which a derivative flows becomes a call of the callee's
*tangent function*: ``jvp_graph(callee, every float and float64-array parameter)``,
which takes the arguments and their tangents (0.0 or a zero array for those that
carry none) and returns the callee's values followed by their tangents; ``CallOut``
nodes read them.  The tangent function of a graph calls itself where the graph
calls itself, so recursion needs neither a tape nor recomputation: each call carries
its tangent along, and the derivative costs what forward mode costs, about twice the
function (the tangent's arithmetic beside the value's).  The tangent functions of a
transform are kept in one memo (a graph's is made once, then shared by its calls).

``grad_by_tangents`` is ``son.grad`` for such a graph: one call of the tangent
function per float argnum, with the unit tangent for that argnum (so the gradient
of n scalars costs n forward-mode runs).  Arrays are refused as argnums there (one
run per element would be needed: use ``son.jvp``), and so is more than one argnum of
a function with array parameters (each run would repeat its writes into them).  A
tangent function returns the tangents of numbers only: a derivative flowing into a call
that returns an array, or into that array, is a located ``SonError``
(``forward._refuse_array_result``), never a result read as carrying no derivative.

Costs: the rewrite is O(arguments) per call site plus one ``jvp_graph`` per callee
graph (O(N + E) each); ``grad_by_tangents`` builds O(argnums * parameters) nodes.
"""

from __future__ import annotations

from ..errors import SonError
from ..nodes import (
    FLOAT,
    ArrayLen,
    ArrayType,
    Call,
    CallMem,
    CallOut,
    Constant,
    CProj,
    Graph,
    NewArray,
    Node,
    Proj,
    Return,
    kept,
)
from ..nodes.types import TupleType, constant

F64 = ArrayType("float64")


def tangent_argnums(graph: Graph) -> tuple[int, ...]:
    """The parameters a tangent function takes tangents for: every float and float64
    array parameter of ``graph``."""
    return tuple(k for k, (_, t) in enumerate(graph.params) if t == FLOAT or t == F64)


def has_calls(graph: Graph) -> bool:
    return any(type(n) is Call for n in graph.nodes())


def _values(call: Node) -> int:
    """How many values ``call`` gives."""
    return len(call.result.elems) if isinstance(call.result, TupleType) else 1


class CallTangents:
    """``_Forward``'s calls (a mixin): ``source`` is the graph being differentiated (its
    self-calls call the tangent function of it), ``memo`` the transform's tangent
    functions."""

    def _init_calls(self, source: Graph, memo: dict | None) -> None:
        self.source = source
        self.memo: dict[Graph, Graph] = {} if memo is None else memo
        #: a primal Call -> its tangent function's Call
        self.rewritten: dict[Node, Node] = {}
        # differentiating with respect to every float parameter: this graph is its own
        # tangent function, which its self-calls call
        self.own = tuple(self.argnums) == tangent_argnums(source)
        if self.own:
            self.memo.setdefault(source, self.g)

    def tangent_function(self, callee: Graph) -> Graph:
        from .forward import jvp_graph

        g = self.memo.get(callee)
        if g is None:
            g = jvp_graph(callee, tangent_argnums(callee), memo=self.memo)
        return g

    def call_tangent(self, c: Node) -> Node | None:
        """The tangent of ``c`` (a Call of one value, or a CallOut of one that gives
        several), its call rewritten first."""
        call = c if type(c) is Call else c.inputs[1]
        jc = self._rewrite_call(call)
        i = 0 if type(c) is Call else c.index
        if c.type.kind not in ("float", "number"):
            return None
        return self.b.pin(CallOut(self.g, jc, _values(call) + i))

    def _rewrite_call(self, c: Node) -> Node:
        """The Call of the tangent function that replaces ``c`` (made once): ``c``'s
        arguments, then the tangent of each float and float64-array argument."""
        jc = self.rewritten.get(c)
        if jc is not None:
            return jc
        callee = c.target or self.source
        if c.target is None and self.own:
            target = None
        else:
            target = self.tangent_function(callee)
        b, g = self.b, self.g
        args = list(c.inputs[2:])
        tangents = []
        for k in tangent_argnums(callee):
            x = args[k]
            if x.type == F64 or isinstance(x.type, ArrayType):
                tangents.append(self.atan[x] if x in self.atan else b.pin(
                    NewArray(g, c.inputs[0], b.node(ArrayLen, x), "float64", "zeros")))
            else:
                tangents.append(self._value(x))
        n = _values(c)
        values = list(c.result.elems) if isinstance(c.result, TupleType) else [c.result]
        result = TupleType(values + [FLOAT] * n)
        jc = b.pin(Call(g, c.inputs[0], c.inputs[1], *args, *tangents, result=result, target=target))
        self.rewritten[c] = jc
        return jc

    def replace_calls(self) -> None:
        """Every rewritten Call's users read the tangent function's call instead."""
        g = self.g
        for c, jc in self.rewritten.items():
            for u in list(c.outputs):
                if type(u) is CallMem:
                    u.set_input(1, jc)
                elif type(u) is CallOut:
                    self._replace(u, self.b.pin(CallOut(g, jc, u.index)))
            if c.outputs and not isinstance(c.result, TupleType):
                self._replace(c, self.b.pin(CallOut(g, jc, 0)))

    def _replace(self, old: Node, new: Node) -> None:
        if old in self.tan:
            self.tan[new] = self.tan[old]
        old.subsume(new)


def grad_by_tangents(graph: Graph, argnums: tuple[int, ...], with_value: bool) -> Graph:
    """``son.grad`` (``with_value``: ``value_and_grad``) of ``graph``, which calls, by
    forward mode: one call of its tangent function per argnum (module docstring)."""
    from .forward import jvp_graph

    floats = tangent_argnums(graph)
    for k in argnums:
        if not 0 <= k < len(graph.params) or graph.params[k][1] != FLOAT:
            what = graph.params[k][0] if 0 <= k < len(graph.params) else k
            raise SonError(f"grad of {graph.name}: through its recursive calls son differentiates with "
                           f"respect to float parameters, not {what!r} (son.jvp takes arrays)")
    if len(argnums) > 1 and any(isinstance(t, ArrayType) for _, t in graph.params):
        raise SonError(f"grad of {graph.name}: through recursive calls son takes one argnum at a time of a "
                       "function with array parameters (each would run its writes into them again)")
    rets = graph.returns()
    if not rets or any(len(r.values) != 1 or r.values[0].type.kind not in ("float", "number") for r in rets):
        raise SonError(f"grad of {graph.name}: the function must return one float for a gradient")
    tangent = jvp_graph(graph, floats)
    w = Graph(f"{graph.name}_grad", graph.params)
    w.source, w.arg_forms = graph.source, graph.arg_forms
    ctrl, mem = CProj(w, w.start, 0), Proj(w, w.start, 1, "mem")
    with kept(ctrl, mem):
        params = [Proj(w, w.start, 2 + i, name).keep() for i, (name, _) in enumerate(graph.params)]
        zero, one = Constant(w, constant(0.0)).keep(), Constant(w, constant(1.0)).keep()
        outs = []
        for k in argnums:
            tans = []
            for j in floats:
                if graph.params[j][1] == FLOAT:
                    tans.append(one if j == k else zero)
                else:
                    tans.append(NewArray(w, ctrl, ArrayLen(w, params[j]), "float64", "zeros"))
            call = Call(w, ctrl, mem, *params, *tans, result=TupleType([FLOAT, FLOAT]), target=tangent)
            mem = CallMem(w, call)
            outs.append((CallOut(w, call, 0), CallOut(w, call, 1)))
        values = ([outs[0][0]] if with_value else []) + [t for _, t in outs]
        w.stop.add_input(Return(w, ctrl, mem, *values))
        for n in (*params, zero, one):
            n.unkeep()
    w.dce()
    return w
