"""Code generation: a ``Schedule`` becomes the Python source of one function that
``numba.njit`` compiles in nopython mode.

This module is the orchestrator (``generate``, ``return_converter``) and decides
how each value is held: a value with a single use later in the same block is
written inline (up to a depth of ``_INLINE_DEPTH``); every other value gets a
local ``v<id>``.  A Load is inlined only if no Store of its block runs between
its place and its use.  The rest lives in one module per concept, each importing
only the ones before it:

* ``emit.py`` -- what each node computes: the ``EMIT`` table of templates, the
  ``HELPERS`` a kernel may call, literals, and ``EMIT_STATE`` (the kinds and
  helpers of the function being generated, which the templates read);
* ``render.py`` -- the statement tree and its rendering as Python source;
* ``mixed.py`` -- mixed values (an int or a float at run time, held as a tag
  and two slots), the bool tags of returned values, the return conversion;
* ``structure.py`` -- structured control flow from the dominator tree and the
  loop forest (levels, loop exits, ``for`` over ranges, fused guards).

``_Codegen`` joins them: it is ``structure.Structurer`` and
``mixed.MixedValues`` plus the names and values written here.

Costs: inlining decisions are O(N) per function; the structuring, one walk over
the blocks, O(N + E) for the usual shallow nesting; rendering is linear in the
size of the code (see each module).
"""

from __future__ import annotations

import keyword
import re

from .. import config
from ..errors import SonError
from ..nodes import (
    Add,
    Call,
    Constant,
    Load,
    Loop,
    Node,
    Phi,
    Proj,
    Return,
    Sub,
    unrefined,
    without_refinements,
)
from ..nodes.types import INT, MEM, NONE, ArrayType, TupleType, Type
from .emit import _NP_DTYPE, ABSTRACT, EMIT, EMIT_STATE, HELPERS, Emit, _paren, literal
from .mixed import _FORM_MARK, _MIXED_MARK, ARGS_MARK, MixedValues, return_converter
from .pyregions import REGION_IMPORTS, region_helper
from .render import _finish, _render
from .scratch import SCRATCH_HELPERS, SCRATCH_MARK, SCRATCH_PARAMS, hoisted_slots, scratch_slots
from .structure import Structurer, _drive, typed_literal

__all__ = ["ABSTRACT", "EMIT", "HELPERS", "Emit", "generate", "literal", "return_converter"]

#: deepest expression written inline before a value gets its own variable
_INLINE_DEPTH = 8


# ====================================================================== generator
class _Codegen(Structurer, MixedValues):
    """One function's code generator: the structurer and the mixed-value part
    (the mixins), the names of the parameters, and the texts of the values."""

    def __init__(self, schedule, name: str, callees: dict | None = None, callee: bool = False):
        self.s = schedule
        #: the module's other graphs this one calls -> their functions' names; ``callee``:
        #: this graph is one of them (written as a function that counts its depth)
        self.callees = callees or {}
        self.is_callee = callee
        self.g = schedule.graph
        self.name = name
        self.blocks = schedule.blocks
        self.block_of = schedule.block_of
        self.names: dict[Node, str] = {}
        self.ref: dict[Node, str] = {}  # node -> its text as an operand
        self.inline: set[Node] = set()
        #: blocks whose phi moves were written where their only predecessor branches to them
        self.forwarded: set = set()
        self._sel = 0
        self._loops_open = 0
        self._params()
        self.kinds = self.refine_kinds()
        EMIT_STATE.kinds = self.kinds
        self.mixed: set[Node] = set()  # values that are an int or a float at run time
        self.mixed_at: list[int] = []  # positions of the returned values that are mixed
        self.bool_at: list[int] = []  # positions of the returned values that may be a bool or not
        self.booltag: set[Node] = set()  # values that carry a run-time "is a bool" tag ``v<id>_b``
        self._check_types()
        self._bool_tags()
        self._check_calls()
        self._structure_info()
        self.tail_calls = self._find_tail_calls()

    # ------------------------------------------------------------------ names and types
    def _check_calls(self) -> None:
        """A ``Call`` is the kernel calling itself or a recursive helper's function: its
        result must be what that function returns as it is (one int, float or bool, no
        run-time tags).  A function that calls or is called counts its depth."""
        self.calls = [n for n in self.block_of if type(n) is Call]
        for n in self.calls:
            if n.target is not None and n.target not in self.callees:
                raise SonError(f"{self.g.name}: the call of {n.callee_name}() has no function to call "
                               "(compile the graph with its module: son.compile)")
        self.counts_depth = bool(self.calls) or self.is_callee
        # values with run-time tags stay inside one function: not across a call or return
        crossing = any(c in self.mixed or any(x in self.mixed for x in c.inputs[2:]) for c in self.calls)
        if self.counts_depth and (crossing or self.bool_at or self.mixed_at):
            raise SonError(f"{self.g.name}: a recursive function whose values may be an int or a float "
                           "(or a bool or an int) at run time is not compiled yet (son.interpret runs it): "
                           "give its parameters and results one type")

    def _find_tail_calls(self) -> set:
        """The function's own calls it makes as its last act, outside any loop: the
        call is the last effect of a block that ends in a Return giving the call's value,
        or the one constant every Return gives (then the call, if it returns, gives it
        too).  Written as the next round of a loop around the body (``_tail_call_text``),
        as LLVM would for numba's own code where nothing raises: a raise anywhere in the
        function made numba check the call's status after it, which kept LLVM from it
        (benchmarks/calls.py's quicksort: 1.19x numba.njit's time, 1.02x without the
        checks).  The depth still counts each call, so RecursionError comes where CPython
        raises it.  O(nodes)."""
        if not self.counts_depth:
            return set()
        rets = [b.term for b in self.blocks if type(b.term) is Return]
        shared = {tuple(_constant_key(v) for v in r.values) for r in rets}
        constant = len(shared) == 1 and None not in next(iter(shared))
        out = set()
        for b in self.blocks:
            calls = [k for k, n in enumerate(b.nodes) if type(n) is Call and n.target is None]
            if b.depth or not calls:
                continue
            c = b.nodes[calls[-1]]
            if any(n.writes_memory or EMIT[type(n)].role == "stmt" for n in b.nodes[calls[-1] + 1:]):
                continue
            values = self._returned_after(b)
            if values is not None and (values == [c] or constant):
                out.add(c)
        return out

    def _returned_after(self, b) -> list[Node] | None:
        """What the function returns right after block ``b``: its own Return's values, or
        those of the Return ending the block ``b`` jumps to when that block has no code
        of its own (a phi there gives its value on the edge from ``b``); else None."""
        if type(b.term) is Return:
            return list(b.term.values)
        if len(b.succs) != 1:
            return None
        t = b.succs[0]
        if type(t.term) is not Return or t.nodes:
            return None
        moved = dict(self.s.moves(b, t))
        return [moved.get(v, v) for v in t.term.values]

    def _tail_call_text(self, c: Node) -> str:
        """The parameters (and the depth) a tail call ``c`` passes, assigned at once."""
        ops = self.operands(c)[1:]
        names = list(self.param_names)
        if not getattr(EMIT_STATE, "uncounted", False):
            names.append("_depth")
            ops = [*ops, "_depth + 1"]
        return f"{', '.join(names)} = {', '.join(_paren(o) for o in ops)}"

    def _params(self) -> None:
        taken = {"math", "np", self.name}
        self.param_names: list[str] = []
        for pname, _ in self.g.params:
            v = pname
            if (not v.isidentifier() or keyword.iskeyword(v) or v in taken or re.match(r"^(v\d+|_.*)$", v)):
                v = f"arg_{pname}"
                while v in taken:
                    v += "_"
            taken.add(v)
            self.param_names.append(v)

    # ------------------------------------------------------------------ values
    def _prepare_block(self, b) -> None:
        """Decide which values of ``b`` are inlined and build their texts."""
        nodes = b.nodes
        pos = {n: k for k, n in enumerate(nodes)}
        end = len(nodes)
        stores_before = []  # stores_before[k] = number of memory writes among nodes[:k]
        c = 0
        for n in nodes:
            stores_before.append(c)
            c += n.writes_memory
        stores_before.append(c)
        eval_pos: dict[Node, int] = {}
        for k in range(end - 1, -1, -1):
            n = nodes[k]
            e = EMIT.get(type(n))
            if e is None:
                raise SonError(f"code generation does not know node class {type(n).__name__} ({n!r})")
            if e.role != "expr" or self._constant(n) is not None or n in self.mixed or n in self.booltag:
                continue
            use = self._single_use(n, b)
            if use is None:
                continue
            u, where = use
            if where == "end":
                at = end
            else:
                if u in self.inline:
                    at = eval_pos[u]
                else:
                    at = pos[u]
            if n.reads_memory and stores_before[at] != stores_before[k]:
                continue
            self.inline.add(n)
            eval_pos[n] = at
        # texts, in order; too deep an expression gets a variable after all
        depth: dict[Node, int] = {}
        for n in nodes:
            e = EMIT[type(n)]
            if e.role in ("expr", "alloc") and n not in self.mixed:
                con = self._constant(n) if e.role == "expr" else None
                if con is not None:
                    self.ref[n] = literal(con.con)
                    continue
                d = 1 + max((depth.get(x, 0) for x in n.inputs[1:] if x in self.inline), default=0)
                if n in self.inline and d > _INLINE_DEPTH:
                    self.inline.discard(n)
                depth[n] = d if n in self.inline else 0
                if n not in self.inline:
                    self.ref[n] = f"v{n.nid}"

    def _constant(self, n: Node) -> Type | None:
        """The constant ``n`` is, written as a literal instead of computed; never for a
        node that runs for its effect (a call, a fallback region: it may write and raise
        whatever its value), nor a Load (its bounds are checked where it stands)."""
        t = n.type
        if t.is_constant and t.kind is not None and type(n) is not Load and not n.writes_memory:
            return t
        return None

    def _single_use(self, n: Node, b) -> tuple[Node, str] | None:
        """The one user of ``n`` if it reads ``n`` once in block ``b`` (where: 'node' or
        'end' for the terminator and the phi moves), else None."""
        users = [(u, k) for u, k in n.outputs.items() if u in self.block_of]
        if len(users) != 1 or users[0][1] != 1:
            return None
        u = users[0][0]
        bu = self.block_of[u]
        if type(u) is Phi:
            i = u.inputs.index(n)
            return (u, "end") if bu.preds[i - 1] is b else None
        if bu is not b:
            return None
        if u.is_cfg:
            return u, "end"
        if self.mixed and (u in self.mixed or any(x in self.mixed for x in u.inputs[1:])):
            return None  # written once per kind of its mixed operands: read from a variable
        e = EMIT.get(type(u))
        if e is None or e.role not in ("expr", "stmt", "alloc"):
            return None
        k = u.inputs.index(n) - 1
        if k in e.atoms_of(u):
            return None
        return u, "node"

    def text(self, n: Node) -> str:
        """``n`` as an operand: its variable, literal, or inlined expression."""
        if n in self.mixed:
            raise SonError(f"code generation: mixed value {n!r} read as one variable (a bug in son)")
        r = self.ref.get(n)
        if r is not None:
            return r
        t = type(n)
        if t is Constant:
            return literal(n.value)
        if t is Proj:
            if n.index >= 2:
                return self.param_names[n.index - 2]
            return "_mem"  # the memory token is never written; it is only an input of memory nodes
        if t is Phi:
            return f"v{n.nid}"
        if n in self.inline:
            r = _paren(self.expression(n))
            self.ref[n] = r
            return r
        raise SonError(f"code generation: {n!r} is used before it is computed (schedule bug)")

    def operands(self, n: Node) -> list[str]:
        """The texts of ``n.inputs[1:]`` (memory states are never written)."""
        return ["_mem" if x is None or x.type is MEM else self.text(x) for x in n.inputs[1:]]

    def expression(self, n: Node) -> str:
        if self.mixed and any(x in self.mixed for x in n.inputs[1:]):
            return self._cases_text(self._cases(n, lambda ops: EMIT[type(n)].fn(n, ops)))
        return EMIT[type(n)].fn(n, self.operands(n))

    # ------------------------------------------------------------------ the function
    def function(self, decorator: str, bound: tuple[int, int] | None = None, uncounted: bool = False,
                 shared: str = "") -> str:
        """The function's source.  ``bound`` (``recursion_bound``: parameter k, limit c):
        the kernel calls a copy that counts no depth where parameter k is below c;
        ``uncounted``: write that copy; ``shared``: see ``generate``."""
        fname = f"_{self.name}_fast" if uncounted else f"_{self.name}_calls"
        EMIT_STATE.kinds, EMIT_STATE.helpers, EMIT_STATE.fname = self.kinds, set(), fname
        EMIT_STATE.exceptions = set()
        EMIT_STATE.uncounted = uncounted
        EMIT_STATE.callees = self.callees
        EMIT_STATE.regions = {}
        # CPython runs the code as written; a function of several calls at once has no scratch
        EMIT_STATE.scratch = scratch_slots(self.s) if decorator and not self.counts_depth else {}
        EMIT_STATE.hoisted = hoisted_slots(self.s) if decorator else {}
        for b in self.blocks:
            self._prepare_block(b)
        storing = self._loops_that_store()
        for h in self.blocks:
            if type(h.head) is Loop and h not in storing and (r := self._range_loop(h)) is not None:
                self.ranges[h] = r
        body: list = []
        _drive(self.level(self.blocks[0], body, []))
        _finish(body)
        lines = sorted(EMIT_STATE.exceptions) + ([""] if EMIT_STATE.exceptions else [])
        if shared and EMIT_STATE.helpers:  # compiled once per process (generate's docstring)
            names = sorted(EMIT_STATE.helpers)
            lines.extend([f"{', '.join(names)}, = {shared}({', '.join(map(repr, names))})", "", ""])
        for h in sorted(EMIT_STATE.helpers) if not shared else ():
            if decorator:
                lines.append(decorator)
            lines.extend((HELPERS.get(h) or SCRATCH_HELPERS[h]).strip("\n").splitlines())
            lines.extend(["", ""])
        if EMIT_STATE.regions:
            lines.extend(REGION_IMPORTS + ["", ""])
        for name, n in sorted(EMIT_STATE.regions.items()):  # CPython holds the GIL: no nogil
            deco = [decorator.replace("nogil=True", "nogil=False")] if decorator else []
            lines.extend(deco + region_helper(name, n) + ["", ""])
        form = next((r.form for r in self.g.returns() if r in self.block_of and r.form is not None), None)
        if form is not None and not self.is_callee:  # a callee's flat values are its caller's to read
            lines.append(f"{_FORM_MARK}{form!r}")
        if self.g.arg_forms is not None and not self.is_callee:  # a callee's (a view's) are the caller's
            lines.append(f"{ARGS_MARK}{self.g.arg_forms!r}")
        if self.mixed_at or self.bool_at:
            count = next(len(r.values) for r in self.g.returns() if r in self.block_of)
            at = sorted(set(self.mixed_at) | set(self.bool_at))
            marks = " ".join(f"{i}b" if i in self.bool_at else str(i) for i in at)
            lines.append(f"{_MIXED_MARK}{count} at {marks}")
        scratch = any(h in SCRATCH_HELPERS for h in EMIT_STATE.helpers)
        if scratch:
            lines.append(f"{SCRATCH_MARK}{len(EMIT_STATE.scratch)}")
        if decorator:
            lines.append(decorator)
        params = ", ".join(self.param_names + (SCRATCH_PARAMS if scratch else []))
        # arrays made in loops, made once (``hoisted_slots``), then, in a function with tail
        # calls, the loop around its body (``_find_tail_calls``)
        loop = [f"    {v} = np.empty({n.inputs[1].type.con}, dtype={_NP_DTYPE[n.dtype]})"
                for n, v in EMIT_STATE.hoisted.items()]
        loop, at = (loop + ["    while True:"], 2) if self.tail_calls else (loop, 1)
        pad = "    " * (at - 1)
        if uncounted:  # the copy a proven bound on the depth frees of counting it
            lines.append(f"def {fname}({', '.join(self.param_names)}):")
            lines.extend(loop + _render(body, at))
        elif self.counts_depth:  # recursion: a function that counts its depth (CPython's RecursionError
            # past the limit), which the kernel calls at depth 0
            lines.append(f"def {EMIT_STATE.fname}({', '.join(self.param_names + ['_depth'])}):")
            lines.extend(loop)
            lines.append(f"{pad}    if _depth >= {config.recursion_limit}:")
            lines.append(f"{pad}        raise RecursionError('maximum recursion depth exceeded')")
            if not any(not _from_own_call(r) for r in self.g.returns() if r in self.block_of):
                # every return gives what its own call gave, or it never returns (it recurses
                # or raises on every path): numba infers a recursive function's type from a
                # return that does not depend on it, so it gets one it cannot prove unreachable
                lines.append(f"{pad}    if _depth < 0:")
                lines.append(f"{pad}        return {_never_value(self.calls, self.g.result)}")
            lines.extend(_render(body, at))
            lines.extend(["", ""] + ([decorator] if decorator else []))
            lines.append(f"def {self.name}({params}):")
            if bound is not None:
                lines.append(f"    if {self.param_names[bound[0]]} < {bound[1]}:")
                lines.append(f"        return _{self.name}_fast({', '.join(self.param_names)})")
            lines.append(f"    return {EMIT_STATE.fname}({', '.join(self.param_names + ['0'])})")
        else:
            lines.append(f"def {self.name}({params}):")
            if scratch:  # nothing carved yet in this call
                lines.append(f"    {SCRATCH_PARAMS[1]}[0] = {SCRATCH_PARAMS[1]}[1] = 0")
            lines.extend(loop + _render(body, 1))
        return "\n".join(lines) + "\n"


def _constant_key(v: Node):
    """A returned value's constant as a comparable key (None for a value that is not one)."""
    t = v.type
    if t is NONE:
        return ("none",)
    return (t.kind, repr(t.con)) if getattr(t, "is_constant", False) else None


def _from_own_call(r: Node) -> bool:
    """Does every value Return ``r`` gives come from a call of the function itself (on
    every path: a Phi is free of the call where one of its inputs is)?  A fixpoint over
    the values ``r`` reads, O(N) per round, rounds bounded by the nesting of phis."""
    nodes, work = [], [x for x in r.inputs[2:] if x is not None]
    seen = set()
    while work:
        n = work.pop()
        if n in seen:
            continue
        seen.add(n)
        nodes.append(n)
        work.extend(x for x in n.inputs[1:] if x is not None and not x.is_cfg)
    free: set = set()  # values computed without the function's own result, on some path
    changed = True
    while changed:
        changed = False
        for n in nodes:
            if n in free or (type(n) is Call and n.target is None):
                continue
            ins = [x for x in n.inputs[1:] if x is not None and not x.is_cfg]
            if (any(x in free for x in ins) if type(n) is Phi else all(x in free for x in ins)):
                free.add(n)
                changed = True
    return not all(x in free for x in r.inputs[2:] if x is not None)


def _never_value(calls: list, result: Type | None = None) -> str:
    """A value of the kind a function that never returns is assumed to give: the result
    its callers assume (``Graph.result``: a helper that returns a pair on a path that
    passes made constant its callers' argument removed), else its own calls' result type,
    else an int, as a caller assumes (fuzz seed 112705 i2262: ``return 0`` where callers
    read a pair, which numba refused)."""
    t = result or next((c.result for c in calls if c.target is None), INT)
    if isinstance(t, ArrayType):  # a recursive helper's array (never read: the test is false)
        return f"np.empty(0, dtype={_NP_DTYPE[t.dtype]})"
    ts = t.elems if isinstance(t, TupleType) else (t,)
    zeros = ["None" if x is NONE else {"float": "0.0", "bool": "False"}.get(x.kind, "0") for x in ts]
    if not isinstance(t, TupleType):
        return zeros[0]
    return f"({', '.join(typed_literal(x.kind, z) for x, z in zip(ts, zeros))},)"  # structure.unliteral


def recursion_bound(graph) -> tuple[int, int] | None:
    """``(k, c)`` where ``graph`` calls only itself, every call passes int parameter ``k``
    at least 1 smaller (``x - d``, ``x`` the parameter, refined or not) and is made only
    where the refinements prove that parameter at least ``b``: a call with parameter ``k``
    below ``c = recursion_limit + min(b) - 2`` then never goes ``recursion_limit`` deep
    (nested call ``j`` has ``p0 - j + 1 >= b``), so the kernel may run a copy that counts
    no depth and cannot raise RecursionError (numba checks no status after its calls:
    benchmarks/calls.py fib).  Read before codegen drops the refinements.  None where no
    parameter is such a measure.  O(N)."""
    calls = [n for n in graph.nodes() if type(n) is Call]
    if not calls or any(c.target is not None for c in calls):
        return None
    for k, (_name, t) in enumerate(graph.params):
        if t.kind != "int":
            continue
        lows = [_decrease_floor(c.inputs[2 + k], graph.param(k)) for c in calls]
        if all(b is not None for b in lows):
            return k, min(config.recursion_limit + min(lows) - 2, 2 ** 63 - 1)
    return None


def _decrease_floor(a: Node, param) -> int | None:
    """``b`` where argument ``a`` is ``x - d`` (``d >= 1`` a constant, ``x`` the parameter,
    refined to at least ``b`` so that ``x - d`` cannot wrap), else None."""
    if param is None or type(a) not in (Add, Sub) or type(a.inputs[2]) is not Constant:
        return None
    x, d = a.inputs[1], a.inputs[2].type.con
    d = -d if type(a) is Add else d
    if type(d) is not int or d < 1 or unrefined(x) is not param or x.type.kind != "int":
        return None
    lo = getattr(x.type, "lo", None)
    if lo is None or lo - d < -(2 ** 63):
        return None
    return lo


def generate(schedule, name: str | None = None, decorator: str = "", callees: dict | None = None,
             callee: bool = False, bound: tuple[int, int] | None = None, shared: str = "") -> str:
    """The Python source of one function computing ``schedule.graph`` with son's
    semantics, in structured control flow that ``numba.njit`` compiles.

    ``name`` defaults to the graph's name.  The function (and the few helper
    functions it calls, such as the exact int/float comparison, written before it)
    use the globals ``math`` and ``np``; ``decorator`` (e.g. ``"@njit"``) is put on
    each.  Without one the source runs under CPython too.  A function returning a
    value that is an int on one path and a float on another returns it as
    ``(is_float, int, float)``; ``return_converter(source)`` converts.  Raises
    ``SonError`` for a graph numba cannot type (a parameter without a type).

    ``callees`` maps each graph the ``Call`` nodes target (a recursive helper's) to
    the name of its depth-counting function, ``_<name>_calls`` of its own ``generate``
    with ``callee=True`` (which writes that function even if the graph calls nothing),
    put in the same module: ``son.exec.kernel.compile_kernel`` joins them.  ``bound``:
    ``recursion_bound`` of the graph before its refinements were dropped.

    ``shared`` (with a ``decorator``): the name of a module-level function that returns
    the helper functions by name, written as one assignment (``a, b, = shared('a',
    'b')``) instead of their definitions.  ``compile_kernel`` uses it so that each
    helper is a dispatcher of one module shared by all kernels, compiled by Numba once
    per process (``son.exec.kernel.shared_helpers``), not once per kernel.
    """
    g = without_refinements(schedule.graph, keep_indices=True)
    if g is not schedule.graph:
        # a refinement is the same value under a narrower type: written as that value
        from ..schedule import schedule as make_schedule

        schedule = make_schedule(g)
    fname = name or schedule.graph.name
    if not fname.isidentifier() or keyword.iskeyword(fname) or fname in HELPERS:
        fname = "kernel"
    try:
        if bound is not None and not callee:
            fast = _Codegen(schedule, fname, callees, callee)
            if any(not _from_own_call(r) for r in fast.g.returns() if r in fast.block_of):
                return fast.function(decorator, uncounted=True, shared=shared) + "\n\n" + _Codegen(
                    schedule, fname, callees, callee).function(decorator, bound, shared=shared)
        return _Codegen(schedule, fname, callees, callee).function(decorator, shared=shared)
    finally:
        EMIT_STATE.kinds, EMIT_STATE.helpers, EMIT_STATE.regions, EMIT_STATE.scratch = {}, set(), {}, {}
        EMIT_STATE.hoisted = {}
        EMIT_STATE.callees, EMIT_STATE.uncounted = {}, False
