"""Reverse mode's analyses of the primal: which blocks, values and arrays take part.

*Backward-live* blocks reach a Return (raises and their guards do not); *global*
blocks are outside loops and dominate every Return.  A value is *active* when it
depends on a differentiated parameter and can reach the result (through data, and
from a Load to the values stored into its array).  Arrays come in *families*
(``_families``): an array, the array Phis that choose it and the ``TapeGrow``s that
grow it; a family is the alias class that ``_reloadable`` asks about, and an active
family must have one root that can get one adjoint array (``_check_family``).
Costs: O(N + E) for activity and reachability, a near-linear union-find for the
families, O(B + E) per alias class for ``_reloadable``.  See ``son.grad.reverse``."""

from __future__ import annotations

from ..errors import SonError
from ..nodes import (
    ArrayType,
    GradVia,
    Graph,
    ListOp,
    ListType,
    Load,
    NewArray,
    NewList,
    Node,
    Phi,
    Proj,
    Store,
)
from ..nodes.memory import TapeGrow
from ..nodes.types import MEM
from .forward import float_list
from .rules import is_differentiable, refuse_active_regions


def is_aggregate(t) -> bool:
    """An array or a list: an object in memory whose items reverse mode gives adjoints."""
    return isinstance(t, (ArrayType, ListType))


def put_value(u: Node) -> Node | None:
    """The item that Store, list method or NewList ``u`` puts into its array or list."""
    t = type(u)
    if t is Store:
        return u.inputs[4]
    if t is NewList:
        return u.inputs[2]
    if t is ListOp and u.method in ("append", "insert"):
        return u.inputs[-1]
    return None


def _where(g: Graph, n: Node) -> str:
    src = f" ({g.source[0]}:{g.source[1]})" if g.source else ""
    return f"{n.label} node %{n.nid} of {g.name}{src}"


class Activity:
    """The analyses of ``_Reverse`` (a mixin)."""

    def _analyse(self) -> None:
        """Backward-live blocks, global blocks, active nodes, arrays needing adjoints."""
        S, P = self.S, self.P
        live = set(self.rets)
        work = list(self.rets)
        while work:
            for p in work.pop().preds:
                if p not in live:
                    live.add(p)
                    work.append(p)
        self.live = live
        self.glob = {b for b in S.blocks
                     if b.depth == 0 and all(S.dominates(b, r) for r in self.rets)}
        self._families()
        act: set[Node] = set()
        work: list[Node] = []

        def activate(x: Node) -> None:
            for m in self.members.get(self.fam.get(x), (x,)):
                if m not in act:
                    act.add(m)
                    work.append(m)

        for i in self.argnums:
            if (p := P.param(i)) is not None:
                activate(p)
        while work:
            n = work.pop()
            for u in n.outputs:
                if u in act or u.is_cfg:
                    continue
                t = type(u)
                if t is Store or t is ListOp:
                    if put_value(u) is n and is_differentiable(n):
                        activate(u.inputs[2])
                    if u.inputs[2] is n or put_value(u) is n:
                        act.add(u)
                    continue
                if t is NewList and u.inputs[2] is n and is_differentiable(n):
                    activate(u)
                    continue
                if t is Load and u.inputs[2] is not n:
                    continue
                if u.type is MEM or not (is_differentiable(u) or is_aggregate(u.type)):
                    continue
                if is_aggregate(u.type):
                    activate(u)
                    continue
                act.add(u)
                work.append(u)
        # the Stores into active arrays (an array may become active after its Stores were seen)
        # (and every list method and NewList of an active list: the backward sweep undoes
        # each change of its length, in reverse, on the adjoint list)
        work_stores = {u for n in act if is_aggregate(n.type)
                       for u in n.outputs if type(u) in (Store, ListOp) and u.inputs[2] is n}
        reaching = self._reaching()
        self._refuse_rows(act | reaching)
        act &= reaching  # a Store reaches nothing by itself: kept with its array
        self.active = act | {n for n in work_stores if n.inputs[2] in act}
        refuse_active_regions(P, act)
        self.arrays: dict[Node, Node | None] = {}  # active primal array -> its adjoint (later)
        self.grown: list[Node] = []  # roots of active families with a TapeGrow (adjoint at J)
        self.list_roots: list[Node] = []  # roots of active list families (adjoint at J)
        for rep in {self.fam[n] for n in act if is_aggregate(n.type)}:
            self._check_family(rep)
            for m in self.members[rep]:
                self.arrays[m] = None

    def _families(self) -> None:
        """Group the primal's arrays into *families*: an array and the arrays made from it
        by ``TapeGrow`` (the same array, or a copy of it with more room) and by array
        Phis (one of their inputs) -- union-find, O(N) near-linear.  ``self.fam`` maps
        every array to its family's representative, ``self.members`` a representative to
        the family, ``self.roots`` to the family's allocations and parameters."""
        parent: dict[Node, Node] = {}

        def find(x: Node) -> Node:
            root = x
            while parent[root] is not root:
                root = parent[root]
            while parent[x] is not root:  # path compression
                parent[x], x = root, parent[x]
            return root

        arrays = [n for n in self.P.nodes() if n.type is not MEM and is_aggregate(n.type)]
        for n in arrays:
            parent[n] = n
        for n in arrays:
            if type(n) is Phi:
                ins = [x for x in n.inputs[1:] if x is not None]
            elif type(n) is TapeGrow:
                ins = [n.inputs[2]]
            else:
                continue
            for x in ins:
                if x in parent:
                    ra, rb = find(n), find(x)
                    if ra is not rb:
                        parent[ra] = rb
        self.fam = {n: find(n) for n in arrays}
        self.members: dict[Node, list[Node]] = {}
        self.roots: dict[Node, list[Node]] = {}
        for n in arrays:
            rep = self.fam[n]
            self.members.setdefault(rep, []).append(n)
            if type(n) not in (Phi, TapeGrow):
                self.roots.setdefault(rep, []).append(n)

    def _check_family(self, rep: Node) -> None:
        """An active family needs one adjoint array for all its members: it must have
        exactly one root, a parameter or a float64 ``NewArray`` outside loops in a block
        dominating every Return (a ``TapeGrow`` family: a ``NewArray``), else ``SonError``
        naming the construct.  A family with a ``TapeGrow`` (a tape of an inner gradient)
        gets its adjoint at the start of the backward sweep (``_build_J``), with the
        largest capacity the tape reached."""
        P, S = self.P, self.S
        roots = self.roots.get(rep, [])
        members = self.members[rep]
        grows = any(type(m) is TapeGrow for m in members)
        if len(roots) != 1:
            n = next((m for m in members if type(m) is Phi), members[0])
            what = ("an array chosen by control flow (a Phi of arrays)" if type(n) is Phi
                    else f"an array made by {n.label}")
            raise SonError(f"grad of {P.name}: not yet differentiable: {what}, "
                           f"{_where(P, n)}; allocate float arrays before any loop or branch")
        (n,) = roots
        t = type(n)
        if isinstance(n.type, ListType):
            self._check_list_root(n)
            return
        ok = ((t is Proj and n.inputs[0] is P.start and not grows)
              or (t is NewArray and S.block_of[n] in self.glob))
        if not ok or n.type.dtype != "float64":
            what = ("an array allocated inside a loop or a branch" if t is NewArray else
                    f"an array of dtype {n.type.dtype}" if ok else f"an array made by {n.label}")
            raise SonError(f"grad of {P.name}: not yet differentiable: {what}, "
                           f"{_where(P, n)}; allocate float arrays before any loop or branch")
        if grows:
            self.grown.append(n)

    def _refuse_rows(self, nodes: set[Node]) -> None:
        """A row read from a list of float lists that a derivative may flow into or out
        of is refused: two reads of one row are two nodes, and the adjoint of the row
        would have to be found again from the table's (a wrong gradient otherwise).
        O(nodes)."""
        for n in nodes:
            if type(n) is Load and float_list(n.type):
                raise SonError(f"grad of {self.P.name}: not yet differentiable: a list of lists (its rows), "
                               f"{_where(self.P, n)}; reverse mode differentiates float lists made before "
                               "any loop or branch, and list[float] parameters (son.jvp, forward mode, "
                               "takes lists of lists)")

    def _check_list_root(self, n: Node) -> None:
        """An active list family needs one adjoint list: its root must be a ``list[float]``
        parameter or a ``NewList`` of floats outside loops in a block dominating every
        Return (its adjoint list is made at the start of the backward sweep, of the
        list's final length, and every change of the list's length is undone on it in
        reverse), else ``SonError`` naming the construct."""
        P, t = self.P, type(n)
        ok = n.type.dtype == "float64" and (
            (t is Proj and n.inputs[0] is P.start) or (t is NewList and self.S.block_of[n] in self.glob))
        if not ok:
            what = ("a list of lists (its rows)" if not float_list(n.type) or type(n) is Load else
                    "a list made inside a loop or a branch (a copy, a slice, a comprehension, + or "
                    "[...] there)" if t is NewList else f"a list made by {n.label}")
            raise SonError(f"grad of {P.name}: not yet differentiable: {what}, {_where(P, n)}; reverse "
                           "mode differentiates float lists made before any loop or branch, and "
                           "list[float] parameters (son.jvp, forward mode, takes any list)")
        self.list_roots.append(n)

    def _reaching(self) -> set[Node]:
        """Float values (and arrays) whose derivative can reach a returned value: backward
        over the inputs of float nodes, and from a Load of an array to every array of its
        family (``_families``) and every value stored into them.  O(N + E)."""
        seen: set[Node] = set()
        fams: set[Node] = set()
        work = [r.term.inputs[2] for r in self.rets]
        while work:
            n = work.pop()
            if n in seen or n.is_cfg or n.type is MEM or not (
                    is_differentiable(n) or is_aggregate(n.type)):
                continue  # ints and bools pass no derivative on
            seen.add(n)
            if type(n) is GradVia:  # the derivative flows to the surrogate only
                work.append(n.inputs[2])
                continue
            work.extend(x for x in n.inputs[1:] if x is not None)
            rep = self.fam.get(n.inputs[2]) if type(n) is Load else None
            if rep is not None and rep not in fams:  # every value stored into the family
                fams.add(rep)
                for arr in self.members[rep]:
                    work.append(arr)
                    work.extend(put_value(u) for u in arr.outputs
                                if type(u) in (Store, ListOp) and u.inputs[2] is arr and put_value(u))
                    if type(arr) is NewList:
                        work.append(arr.inputs[2])
        return seen

    def _reloadable(self, load: Node) -> bool:
        """Does primal Load ``load`` read what its array holds when the function returns
        (so the backward sweep may load it again)?  Yes when no Store that may write the
        array is reachable from the Load's block (the block itself included).  Stores
        are grouped by ``_alias_class``: a Store into a parameter may write any
        parameter (one array may be passed twice), a Store into an array whose family
        has no single root may write anything; a ``NewArray`` is written only through
        its family (itself, its Phis, its grown copies: a tape).  Per array: one
        backward walk from the blocks of its Stores, O(B + E)."""
        arr = self._alias_class(load.inputs[2])
        reach = self._store_reach.get(arr)
        if reach is None:
            S, stores = self.S, self._stores
            kinds = list(stores) if arr == "other" else [arr, "other"]
            work = [S.block_of[st] for k in kinds for st in stores.get(k, ())]
            reach = set(work)
            while work:
                for p in work.pop().preds:
                    if p not in reach:
                        reach.add(p)
                        work.append(p)
            self._store_reach[arr] = reach
        return self.S.block_of[load] not in reach

    def _alias_class(self, arr: Node):
        """The alias class of a primal array: the ``NewArray`` its family
        (``_families``: through ``TapeGrow`` and array Phis) comes from, 'param' for a
        family of parameters, or 'other' (a family with several roots, or another kind
        of root)."""
        roots = self.roots.get(self.fam.get(arr), ())
        if roots and all(type(r) is Proj and r.inputs[0] is self.P.start for r in roots):
            return "param"
        if len(roots) == 1 and type(roots[0]) is NewArray:
            return roots[0]
        return "other"
