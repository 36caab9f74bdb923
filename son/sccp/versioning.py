"""Loop versioning: one test before a counted loop picks a copy of it without bounds checks.

``for i in range(len(x)): y[i] = 2.0 * x[i]`` tests ``i < len(y)`` on every
iteration, and no fact decides it: ``len(y)`` is unrelated to ``len(x)``.  One
comparison before the loop does: if ``0 <= start`` and ``stop <= len(y)``,
every index the loop forms is in bounds.  C2 hoists such a test out of the loop
as a *predicate* and deoptimizes when it fails; son has no interpreter to fall
back to, so, as LLVM's LoopVersioning, it keeps both copies::

    if predicate:   the loop without the checks the predicate proves
    else:           the loop as it was (each check raises IndexError at the
                    iteration CPython raises it, after the same side effects)

Which loops: innermost loops whose header tests ``i < stop``, stays in the loop
when true, for a counter ``i = phi(start, i + 1)``, with ``stop`` computed
before the loop, of at most ``MAX_LOOP_NODES`` nodes.  Which checks:
``out_of_bounds(idx, n)`` in the loop's body with ``n`` computed before the loop
and ``idx = s * i + b``, where the stride ``s`` and the base ``b`` are constants
or values computed before the loop (``a[i]``, ``a[i + 1]``, ``a[i * n + k]`` in
the ``k`` loop, ``b[k * n + j]``).  The predicate, conjoined over the checks,
implies ``0 <= s * k + b < n`` for every ``k`` in ``[start, stop)`` when the loop
runs at least once (when it does not, either copy only tests ``start < stop``);
under it no index can wrap, and every term is computed without wrapping:

* ``s = 1, b = c >= 0``: ``start >= -c`` and ``stop <= n - c``;
* ``s = 1, b = c < 0``: ``start >= -c`` and ``stop + c <= n`` (``stop > start >= -c``);
* ``s = 1``, ``b`` a value: ``start >= 0``, ``b >= 0``, ``stop <= n``, ``b <= n - stop``;
* otherwise: ``start >= 0``, ``s >= 1``, ``b >= 0`` and
  ``stop <= (n - 1 - b) // max(s, 1) + 1``, the last index ``(stop - 1) * s + b``
  being at most ``n - 1``.

The copy is made on the graph, from the schedule (a node is in the loop if GCM
places it in one of the loop's blocks): a new ``If(predicate)`` before the
header, every loop node duplicated, an exit into a merge (the return's region)
given a second input, any other exit (a projection leaving the loop) merged
with its copy by a new Region, and a value of the loop read after an exit
through a Phi there.  A loop whose values are read after several exits at once
is left alone.  The copy's checks become ``False`` and the peephole removes
their raises.

*Predication* instead of a copy (kernels, ``signed_only``, where every checked index is
provably non-negative): a loop with no effect but its checks' one ``IndexError``, that
leaves only by its test (no store, call, ``break`` or other fault), gets ``if start <
stop and not predicate: raise`` before it and loses its checks.  Raising before the
first iteration instead of at the failing one cannot be told apart, since nothing
the loop did is visible after the raise; the predicate is exact there (stride 1, its
``>=`` conditions proven by the lattice: it fails exactly when the last index is
``>= n``).  ``dot``'s ``b[i]`` is one test before the loop, not one per iteration.

Cost: one schedule, O(N + E), per versioned loop, plus O(size of the loop + its
uses) to copy it and O(N) for the peephole's cleanup; code grows by the versioned
loops (each at most ``MAX_LOOP_NODES`` nodes).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..nodes import (
    GE,
    LE,
    LT,
    Add,
    BitAnd,
    Call,
    Constant,
    CProj,
    FloorDiv,
    Graph,
    If,
    Load,
    Loop,
    Max,
    Mul,
    Node,
    Not,
    OutOfBounds,
    Phi,
    Raise,
    Refine,
    Region,
    Store,
    Sub,
    unrefined,
)
from ..nodes.types import bounds, constant
from ..peephole import Peephole
from ..schedule.gcm import schedule

__all__ = ["MAX_LOOP_NODES", "version_loops"]

#: the largest loop (in nodes) that is copied
MAX_LOOP_NODES = 2000
_INT64_MAX = (1 << 63) - 1


@dataclass
class _Plan:
    """What versioning one loop needs; found before anything is changed."""

    head: Loop
    nodes: list[Node]
    checks: list[tuple[OutOfBounds, list]]  # (check, its conditions: see _conditions)
    region_exits: list[tuple[Region, int]] = field(default_factory=list)  # a merge's input from the loop
    proj_exits: list[CProj] = field(default_factory=list)  # a projection leaving the loop
    data_uses: list[tuple[Node, int, Node, CProj]] = field(default_factory=list)  # (user, input, value, exit)
    test: If | None = None  # the header's test ``i < stop``


def version_loops(graph: Graph, signed_only: bool = False) -> dict:
    """Version every innermost counted loop with checks a predicate before it proves (see
    the module docstring); with ``signed_only``, only loops where one of those checks
    tests an index the lattice does not prove non-negative (kernels: there numba also
    tests each access for a negative index, which the copy avoids; a check of a
    non-negative index is one predictable compare, not worth a second copy's compile
    time).  Returns ``{"versioned": loops, "checks": checks removed from the copies}``."""
    done: set[Node] = set()
    loops = checks = predicated = 0
    for _ in range(64):  # one loop per schedule; a bound in case the graph surprises
        plan = _next_plan(graph, done)
        if plan is None:
            break
        done.update(c for c, _ in plan.checks)
        if signed_only and all((bounds(c.inputs[1].type) or (-1,))[0] >= 0 for c, _ in plan.checks):
            fault = _predicable(plan)
            if fault is not None:
                _apply_predicate(graph, plan, fault)
                predicated += 1
                checks += len(plan.checks)
            continue
        _apply(graph, plan)
        loops += 1
        checks += len(plan.checks)
    if loops or predicated:
        Peephole(graph).iterate(graph.nodes())
        graph.dce()
    return {"versioned": loops, "predicated": predicated, "checks": checks}


def _predicable(plan: _Plan) -> Raise | None:
    """The one ``Raise`` of every check of a loop that can be *predicated* (one test before
    it raises where some iteration would, and the loop runs without its checks), or
    None.  Sound only where raising early cannot be told apart from raising late:

    * the loop has no effect but the checks' raises: no store, call or other write, and
      it leaves only by its header's test or by a check's raise (no ``break``, ``return``
      or other fault), so every iteration up to the failing one runs and nothing it did
      is visible after the raise; the checks raise the same exception;
    * each check's predicate is exact: its index ``i + c`` (or ``i + b``) is provably
      non-negative, every ``>=`` condition on ``start`` and ``b`` is proven by the
      lattice, so a failed predicate means the last iteration's index is ``>= n``.
    """
    if plan.test is None or any(getattr(n, "writes_memory", False) or type(n) is Call for n in plan.nodes):
        return None
    ifs = {id(n): n for n in plan.nodes if type(n) is If}
    checked = {id(i) for i in ifs.values() if any(i.inputs[1] is c for c, _ in plan.checks)}
    if plan.region_exits:
        return None
    raises: set[tuple] = set()
    fault = None
    for x in plan.proj_exits:
        if x.inputs[0] is plan.test and x.index == 1:
            continue
        if id(x.inputs[0]) not in checked or x.index != 0:
            return None
        users = [u for u in x.outputs if u.inputs is not None]
        if len(users) != 1 or type(users[0]) is not Raise:
            return None
        fault = users[0]
        raises.add(fault.payload())
    if len(raises) != 1:
        return None
    for _, conditions in plan.checks:
        for op, a, b in conditions:
            if op is GE and not (isinstance(b, int) and isinstance(a, Node)
                                 and (bounds(a.type) or (b - 1,))[0] >= b):
                return None  # a stride other than 1 among them: (GE, stride, 1)
    return fault


def _apply_predicate(graph: Graph, plan: _Plan, fault: Raise) -> None:
    """``if start < stop and not predicate: raise`` before the loop; its checks false."""
    i, stop = unrefined(plan.test.inputs[1].inputs[1]), plan.test.inputs[1].inputs[2]
    pred = None
    for _, conditions in plan.checks:
        for op, a, b in conditions:
            if op is LE:
                c = op(graph, _build(graph, a), _build(graph, b))
                pred = c if pred is None else BitAnd(graph, pred, c)
    head = plan.head
    entry = head.inputs[1]
    fails = BitAnd(graph, LT(graph, i.inputs[1], stop), Not(graph, pred))  # it runs, and fails
    branch = If(graph, entry, fails)
    mem = fault.inputs[1]
    if type(mem) is Phi and mem.inputs[0] is head:
        mem = mem.inputs[1]
    graph.stop.add_input(Raise(graph, CProj(graph, branch, 0), mem, fault.exc, fault.message))
    head.set_input(1, CProj(graph, branch, 1))
    false = Constant(graph, constant(False))
    for check, _ in plan.checks:
        check.subsume(false)


def _next_plan(graph: Graph, done: set[Node]) -> _Plan | None:
    s = schedule(graph)
    outer = {b.outer for b in s.blocks if b.loop is b}
    for h in s.blocks:
        if h.loop is h and h not in outer:
            plan = _plan(s, h, done)
            if plan is not None:
                return plan
    return None


def _checked_copy(head: Loop) -> bool:
    """Whether the loop is the checked copy of a versioned loop (entered on the false arm
    of an ``If`` whose true arm enters a loop): versioning it again would only copy it
    once more under a predicate already known false."""
    entry = head.inputs[1]
    if type(entry) is not CProj or entry.index != 1 or type(entry.inputs[0]) is not If:
        return False
    return any(type(p) is CProj and p.index == 0 and any(type(u) is Loop for u in p.outputs)
               for p in entry.inputs[0].outputs)


def _int_con(n: Node) -> int | None:
    t = n.type
    return int(t.con) if type(n) is Constant and t.kind == "int" and t.is_constant else None


def _plan(s, h, done: set[Node]) -> _Plan | None:
    """The plan for the loop headed by block ``h``, or None if it is not versioned."""
    blocks = {b for b in s.blocks if b.loop is h}
    t = h.term
    if type(t) is not If or len(h.succs) != 2 or h.succs[0] not in blocks or h.succs[1] in blocks:
        return None
    cond, head = t.inputs[1], h.head
    if type(cond) is not LT or _checked_copy(head):
        return None
    i, stop = unrefined(cond.inputs[1]), cond.inputs[2]

    def inside(n: Node) -> bool:
        return s.block_of.get(n) in blocks

    if (type(i) is not Phi or i.inputs[0] is not head or len(i.inputs) != 3 or i.type.kind != "int"
            or stop.type.kind != "int" or inside(stop)):
        return None
    nxt = i.inputs[2]
    if type(nxt) is not Add or not any(unrefined(a) is i and _int_con(b) == 1
                                       for a, b in ((nxt.inputs[1], nxt.inputs[2]),
                                                    (nxt.inputs[2], nxt.inputs[1]))):
        return None
    nodes = [n for b in s.blocks if b in blocks for n in (*b.cfg, *b.phis, *b.nodes)]
    if len(nodes) > MAX_LOOP_NODES:
        return None
    checks = []
    for n in nodes:
        if type(n) is OutOfBounds and n not in done and not inside(n.inputs[2]) \
                and all(s.block_of.get(u) is not h for u in n.outputs):
            form = _affine(n.inputs[1], i, inside)
            conditions = None if form is None else _conditions(*form, i.inputs[1], stop, n.inputs[2])
            if conditions is not None:
                checks.append((n, conditions))
    if not checks:
        return None
    plan = _Plan(head, nodes, checks, test=t)
    return plan if _exits(s, plan, set(nodes)) else None


def _affine(x: Node, i: Node, inside) -> tuple[int | Node, int | Node] | None:
    """``(stride, base)`` with ``x == stride * i + base``, each an int or a node computed
    before the loop; None if ``x`` has no such form."""

    def invariant(q: Node) -> int | Node | None:
        if inside(q) or q.type.kind != "int":
            return None
        c = _int_con(q)
        return q if c is None else c

    def term(y: Node) -> int | Node | None:  # stride * i
        y = unrefined(y)
        if y is i:
            return 1
        if type(y) is Mul:
            for p, q in ((y.inputs[1], y.inputs[2]), (y.inputs[2], y.inputs[1])):
                if unrefined(p) is i and (sq := invariant(q)) is not None:
                    return sq
        return None

    x = unrefined(x)
    if (st := term(x)) is not None:
        return st, 0
    if type(x) is Add:
        for p, q in ((x.inputs[1], x.inputs[2]), (x.inputs[2], x.inputs[1])):
            if (b := invariant(q)) is not None and (st := term(p)) is not None:
                return st, b
    return None


def _conditions(stride, base, start, stop, n):
    """The conditions (as ``(op, a, b)`` with ints or nodes, ``op`` one of ``GE``, ``LE``)
    that prove ``0 <= stride * k + base < n`` for every ``k`` in ``[start, stop)``; see
    the module docstring.  None where no formula applies."""
    if stride == 1 and isinstance(base, int):
        if -base > _INT64_MAX:
            return None
        upper = (LE, stop, (Sub, n, base)) if base >= 0 else (LE, (Add, stop, base), n)
        return [(GE, start, -base), upper]
    if stride == 1:
        return [(GE, start, 0), (GE, base, 0), (LE, stop, n), (LE, base, (Sub, n, stop))]
    if isinstance(stride, int) and stride < 1 or isinstance(base, int) and base < 0:
        return None
    last = (Add, (FloorDiv, (Sub, (Sub, n, 1), base), (Max, stride, 1)), 1)
    return [(GE, start, 0), (GE, stride, 1), (GE, base, 0), (LE, stop, last)]


def _exits(s, plan: _Plan, members: set[Node]) -> bool:
    """Fill in how the loop's values and control leave it; False if one way is not handled."""
    proj_exits: dict[CProj, None] = {}
    region_exits: dict[tuple[Region, int], None] = {}
    uses: list[tuple[Node, int, Node, object]] = []
    for n in plan.nodes:
        for u in n.outputs:
            if u in members or u.inputs is None or u not in s.block_of:
                continue
            for j, x in enumerate(u.inputs):
                if x is not n:
                    continue
                if type(u) is Region and j >= 1:
                    region_exits[(u, j)] = None
                elif j == 0:
                    if type(u) is not CProj:
                        return False  # a node hanging from the loop's control outside it
                    proj_exits[u] = None
                elif type(u) is Phi:
                    pred = u.inputs[0].inputs[j]
                    if pred not in members:
                        uses.append((u, j, n, s.block_of[pred]))
                else:
                    uses.append((u, j, n, s.block_of[u]))
    for u, j, n, where in uses:
        # the exit that every path to the use leaves by
        leaving = [x for x in proj_exits if s.dominates(s.block_of[x], where)]
        if len(leaving) != 1:
            return False
        plan.data_uses.append((u, j, n, leaving[0]))
    plan.region_exits = list(region_exits)
    plan.proj_exits = list(proj_exits)
    return True


def _apply(graph: Graph, plan: _Plan) -> None:
    """Copy the loop and put the predicate's ``If`` before the two copies."""
    copy: dict[Node, Node] = {n: n.duplicate([]) for n in plan.nodes}
    for n in plan.nodes:
        c = copy[n]
        for x in n.inputs:
            c.add_input(copy.get(x, x) if x is not None else None)
    head = plan.head
    pred = None
    for _, conditions in plan.checks:
        for op, a, b in conditions:
            c = op(graph, _build(graph, a), _build(graph, b))
            pred = c if pred is None else BitAnd(graph, pred, c)
    branch = If(graph, head.inputs[1], pred)
    fast, checked = CProj(graph, branch, 0), CProj(graph, branch, 1)
    copy[head].set_input(1, fast)
    head.set_input(1, checked)
    for region, j in plan.region_exits:
        phis = [u for u in region.outputs if type(u) is Phi]
        region.add_input(copy[region.inputs[j]])
        for p in phis:
            v = p.inputs[j]
            p.add_input(copy.get(v, v))
    merges: dict[CProj, Region] = {}
    for x in plan.proj_exits:
        users = list(x.outputs)
        merge = merges[x] = Region(graph, x, CProj(graph, copy[x.inputs[0]], x.index))
        for u in users:
            for k, y in enumerate(u.inputs):
                if y is x:
                    u.set_input(k, merge)
    phis: dict[tuple[CProj, Node], Phi] = {}
    for u, j, v, x in plan.data_uses:
        p = phis.get((x, v))
        if p is None:
            p = phis[(x, v)] = Phi(graph, merges[x], v, copy[v])
        u.set_input(j, p)
    false, zero = Constant(graph, constant(False)), Constant(graph, constant(0))
    for check, _ in plan.checks:
        _non_negative_accesses(graph, copy, check.inputs[1], zero)
        copy[check].subsume(false)


def _non_negative_accesses(graph: Graph, copy: dict[Node, Node], index: Node, zero: Node) -> None:
    """In the copy, read ``index`` in the array accesses it checks as
    ``Refine(index >= 0)``: the predicate proves it for every iteration of the copy, and
    codegen passes an index the lattice proves non-negative to numba unsigned, which
    skips numba's per-access test for a negative index (without it, versioned matmul
    still ran 1.6x numba's time: that test kept LLVM from simplifying the access)."""
    same, work = {index}, [index]  # index and its refinements
    while work:
        for u in work.pop().outputs:
            if type(u) is Refine and u.inputs[1] in same and u not in same:
                same.add(u)
                work.append(u)
    for u in {u for x in same for u in x.outputs}:
        c = copy.get(u)
        if c is not None and type(u) in (Load, Store) and u.inputs[3] in same:
            c.set_input(3, Refine(graph, c.inputs[0], c.inputs[3], zero, "ge"))


def _build(graph: Graph, spec) -> Node:
    """The node for a term of ``_conditions``: an int, a node, or ``(class, a, b)``."""
    if isinstance(spec, Node):
        return spec
    if isinstance(spec, int):
        return Constant(graph, constant(spec))
    cls, a, b = spec
    return cls(graph, _build(graph, a), _build(graph, b))
