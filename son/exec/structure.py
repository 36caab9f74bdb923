"""The structurer: a Schedule's blocks become structured ``while``/``for``/``if``/``break`` code.

Structured control flow from the dominator tree and the loop forest (in the
spirit of Ramsey, "Beyond Relooper", ICFP 2022, adapted to Python, which has no
labelled blocks).  Each block is emitted once:

- a block with one forward predecessor is written where that predecessor
  branches to it (inside the ``if``), a loop header as ``while True:`` -- or,
  for a counted loop that stores into no array (``_range_loop``), as
  ``for i in range(start, stop[, -1]):`` with the exhausted range's exit in
  its ``else`` (numba types a range loop in less time);
- a merge block (two or more forward predecessors) is written after the
  code of its immediate dominator, in the *level* of that dominator: a
  statement list ``[x, m1, m2, ...]`` (merge children in reverse
  postorder) where a branch to ``mk`` falls off the end of what precedes
  it; when control may fall past ``mk`` on its way to a later member, ``mk``
  is guarded by ``if _sN == k`` and the branches to it set ``_sN`` (a member
  no written branch goes to, every branch to it decided never taken, is not
  written: all branches to ``mk`` precede it);
- a block outside a loop whose dominator is inside it (a loop exit) is
  written after the ``while`` of the outermost loop it leaves, in the
  loop's *out-level*, and reached by ``break`` (with a selector when the
  out-level has several entries) -- except an exit whose code only returns
  or raises (a guard's ``raise``, an early ``return``), which is written at
  the branch itself;
- a branch that must leave several loops at once sets the inner loop's
  flag ``_fN`` and breaks; after that loop's ``while`` the flag re-issues
  the branch one loop further out (``break`` or ``continue``).

Phi moves are parallel assignments at the branch site.  A merge that only
returns (the frontend joins every ``return`` in one block) becomes a ``return``
at each branch to it.  Consecutive guards that raise are tested with one branch
(``if not (lo <= x < hi):`` for ``int(x)``, ``if not math.isfinite(r):`` for a
math call's checks).  A test that a dominating test decides is not codegen's
business: the ``guards`` pass (son/sccp/guards.py) folds it in the graph.  A loop is written as a ``for``
over a range only where numba's count of the range cannot wrap (by the int
ranges of its bounds' types).  The statements built here are rendered by ``render.py``.

``Structurer`` is mixed into the generator (``codegen._Codegen``) and reads its
values (``text``, ``expression``, ``operands``, ``inline``, ``_constant``) and
its mixed-value code (``mixed.MixedValues``).

Costs: the structuring is one walk over the blocks with an explicit stack of
generators (``_drive``: no Python recursion, whatever the depth of the dominator
tree); a branch resolves its target by looking up the stack of enclosing levels
and loops, O(nesting); placement is O(blocks * loop nesting).  Overall O(N + E)
for the usual shallow nesting.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterator

from ..errors import SonError
from ..nodes import (
    GE,
    GT,
    LT,
    Add,
    BitOr,
    CProj,
    If,
    IsNan,
    Loop,
    MathError,
    Node,
    Not,
    Phi,
    Raise,
    Region,
    Return,
    Sub,
    ToBool,
)
from ..nodes.types import INT64_MAX, INT64_MIN, MEM, NONE, Type, bounds
from .emit import EMIT, EMIT_STATE, _const, _kind, _paren, _strip, _unparen
from .render import _Comment, _Exit, _If, _Lazy, _negate, _Set, _While

#: Python rejects more than 20 nested loops
_MAX_LOOPS = 20


# ====================================================================== levels and loops
_OUTWARD = 1 << 60  # "a target past every member of this level"


def unliteral(t: Type, text: str) -> str:
    """An int or bool constant's text in a tuple a recursive function returns, typed as
    a plain int64 or bool: numba types ``(10, 3)`` as a tuple of literals, a struct in
    LLVM, where the function's own calls expect an array of i64 ("Function type
    returns {i64, i64} but resty=[2 x i64]"; son.fuzz seed 112705 i11771)."""
    return typed_literal(t.kind, text) if t.is_constant else text


def typed_literal(kind: str | None, text: str) -> str:
    """An int or bool literal's text as a plain int64 or bool for numba (``unliteral``);
    anything else as it is."""
    return {"int": f"np.int64({text})", "bool": f"np.bool_({text})"}.get(kind, text)


class _Level:
    """Blocks written one after another in one statement list; see the module docstring."""

    __slots__ = ("members", "index", "pos", "pending", "guarded", "sel", "targeted")

    def __init__(self, members: list, sel: str):
        self.members = members
        self.index = {b: k for k, b in enumerate(members)}
        self.pos = 0
        self.pending = -1  # the furthest member (or _OUTWARD) a branch so far falls towards
        self.guarded: set[int] = set()
        self.sel = sel
        #: members some written branch goes to (a guarded member outside it is never run)
        self.targeted: set[int] = set()

    def init(self) -> str | None:
        return _Set.of(self.sel, -1) if self.guarded else None  # -1: no member yet

    def set(self, k: int) -> Callable[[], str | None]:
        self.targeted.add(k)
        return lambda: _Set.of(self.sel, k) if k in self.guarded else None

    def dead_member(self) -> bool:
        """Is a guarded member the target of no written branch (its test is never true)?"""
        return bool(self.guarded - self.targeted)


@dataclass
class _Range:
    """A loop written ``for v<phi> in range(start, stop[, -1])`` (``Structurer._range_loop``);
    ``start`` is the text of the start, or None: the range reads the counter, which the
    entry's phi move assigns."""

    phi: Node
    stop: Node
    step: int
    start: str | None
    keep_move: bool  # the entry's phi move still assigns the counter
    node: _While | None = None


class _LoopFrame:
    __slots__ = ("header", "node", "out", "flag", "deferred")

    def __init__(self, header, node: _While, out: _Level | None, flag: str):
        self.header = header
        self.node = node
        self.out = out
        self.flag = flag
        #: (kind, target block) -> flag value, for branches that leave more than this loop
        self.deferred: dict[tuple[str, object], int] = {}

    def init(self) -> str | None:
        return _Set.of(self.flag, 0) if self.deferred else None


def _drive(gen: Iterator) -> None:
    """Run a generator that yields sub-generators (its 'calls') without Python recursion."""
    stack = [gen]
    while stack:
        try:
            sub = next(stack[-1])
        except StopIteration:
            stack.pop()
            continue
        stack.append(sub)


# ====================================================================== the generator's structuring part
class Structurer:
    """The structuring part of the code generator (``codegen._Codegen``): where each
    block is written, which loops are ``for`` loops, and the walk that writes the
    blocks.  Reads the generator's values (``text``, ``expression``, ``operands``,
    ``inline``, ``_constant``) and its mixed-value code (``mixed.MixedValues``)."""

    def _structure_info(self) -> None:
        """Loop membership, forward predecessors, and where each block is written."""
        s, blocks = self.s, self.blocks
        # parent loop of each header: the innermost loop of its entry predecessor
        self.parent: dict = {}
        for b in blocks:
            if type(b.head) is Loop:
                self.parent[b] = b.preds[0].loop if b.preds else None
        self.fpreds = {b: [p for p in b.preds if not s.dominates(b, p)] for b in blocks}
        # dominator-tree children, preorder numbers and subtree ranges (iteratively)
        children: dict = {b: [] for b in blocks}
        for b in blocks[1:]:
            children[b.idom].append(b)
        pre, last = {}, {}
        order = []
        stack = [blocks[0]]
        while stack:
            b = stack.pop()
            pre[b] = len(order)
            order.append(b)
            stack.extend(reversed(children[b]))
        for b in reversed(order):
            last[b] = max([pre[b]] + [last[c] for c in children[b]])
        #: merges that only return a value (the frontend joins every return into one):
        #: each branch to one is written as its own `return`
        self.returns = {y for y in blocks if type(y.head) is Region and type(y.term) is Return
                        and len(y.cfg) == 2 and not y.nodes}
        # terminal(y): no edge leaves y's dominator subtree (its code only returns/raises;
        # a branch to a return block is a `return`)
        lo = {b: min([pre[x] for x in b.succs if x not in self.returns], default=pre[b]) for b in blocks}
        hi = {b: max([pre[x] for x in b.succs if x not in self.returns], default=pre[b]) for b in blocks}
        for b in reversed(order):
            for c in children[b]:
                lo[b] = min(lo[b], lo[c])
                hi[b] = max(hi[b], hi[c])
        self.terminal = {b: lo[b] >= pre[b] and hi[b] <= last[b] for b in blocks}
        # placement: None = written at its (single forward) predecessor's branch;
        # ("level", x) = after x's code in x's level; ("out", H) = after loop H's while
        self.at_level: dict = {b: [] for b in blocks}
        self.at_out: dict = {b: [] for b in blocks}
        for y in blocks[1:]:
            if type(y.head) is Loop or y in self.returns:
                continue  # entered from its one forward predecessor, or duplicated
            exited = []
            h = y.idom.loop
            while h is not None and not self.in_loop(y, h):
                exited.append(h)
                h = self.parent[h]
            single = len(self.fpreds[y]) == 1
            if not exited:
                if not single:
                    self.at_level[y.idom].append(y)
                continue
            if single and self.terminal[y] and self.fpreds[y][0] not in exited:
                continue
            self.at_out[exited[-1]].append(y)
        #: blocks written in a level (all others are written at the branch to them)
        self.placed = {y for lst in self.at_level.values() for y in lst}
        self.placed.update(y for lst in self.at_out.values() for y in lst)
        #: loop headers written as ``for i in range(...)`` (known once values are placed)
        self.ranges: dict = {}

    def _range_loop(self, h) -> _Range | None:
        """The counted loop headed by ``h``, if it is one Python writes as ``for i in
        range(start, stop[, -1])``: a header that computes nothing but its test ``i < stop``
        (``i > stop``), which stays in the loop when true; ``i`` a Phi of ``start`` and
        ``i + 1`` (``i - 1``) from the one back edge; ``stop`` computed before the loop;
        and ``i`` not read where the loop has ended normally -- a ``for`` leaves ``i`` at
        the last value it took, not at ``stop`` (a read after a ``break`` is fine).  numba
        types and lowers a range loop with fewer operations than the equivalent ``while``
        (measured: ~4 ms less type inference per loop, benchmarks/kernels.py newton_sqrt).
        O(uses of i * loop nesting), plus O(blocks) when i is read outside the loop."""
        t = h.term
        if (len(h.preds) != 2 or type(t) is not If or len(h.succs) != 2 or self._has_code(h)
                or not self.in_loop(h.succs[0], h) or self.in_loop(h.succs[1], h)
                or self.in_loop(h.preds[0], h) or not self.in_loop(h.preds[1], h)):
            return None
        cond = t.inputs[1]
        step = {LT: 1, GT: -1}.get(type(cond))
        if step is None or cond not in self.inline:
            return None
        i, stop = cond.inputs[1], cond.inputs[2]
        if (type(i) is not Phi or i.inputs[0] is not h.head or i in self.mixed or stop in self.mixed
                or _kind(i) != "int" or _kind(stop) != "int" or self.in_loop(self.block_of[stop], h)):
            return None
        nxt = i.inputs[2]
        if type(nxt) not in (Add, Sub) or nxt.inputs[1] is not i:
            return None
        c = _const(nxt.inputs[2])
        if type(c) is not int or (c if type(nxt) is Add else -c) != step:
            return None
        after: set | None = None  # blocks the normal exit reaches, computed when needed
        for u in i.outputs:
            bu = self.block_of.get(u)
            if bu is None:
                continue
            at = [bu.preds[k - 1] for k, x in enumerate(u.inputs) if k and x is i] if type(u) is Phi else [bu]
            for b in at:
                if self.in_loop(b, h) and not (b is h and type(u) is Phi):
                    continue  # read in an iteration
                if after is None:
                    after = self._after_exit(h)
                if b is h or b in after:
                    return None
        # the start is written in the range when it is a literal or a variable no phi move
        # into the header assigns; else the entry's move assigns i and the range reads it.
        # i read after a break keeps its move too: numba may see paths (selector tests it
        # cannot decide) from an empty range to that read, and refuses a variable that may
        # be undefined
        start, text = i.inputs[1], None
        if start not in self.mixed and _kind(start) == "int" and start not in self.inline \
                and not (type(start) is Phi and start.inputs[0] is h.head):
            text = self.text(start)
        # numba counts a range's elements as (stop - start) // step in int64, which must not
        # wrap (range(1, INT64_MIN) would run, range(-INT64_MAX, 6) would not; son.fuzz
        # seed 2601): where the bounds of start and stop do not rule that out, the loop
        # stays a while loop.  (Clamping, range(1, max(n, 1)), cost numba more compile
        # time than the for saved: gcd_sum.)
        full = (INT64_MIN, INT64_MAX)
        (lo_a, hi_a), (lo_b, hi_b) = bounds(start.type) or full, bounds(stop.type) or full
        lo_d, hi_d = lo_b - hi_a, hi_b - lo_a  # stop - start, as Python ints
        if hi_d > INT64_MAX or lo_d < (INT64_MIN if step == 1 else -INT64_MAX):
            return None
        return _Range(i, stop, step, text, keep_move=text is None or after is not None)

    def _loops_that_store(self) -> set:
        """The headers of the loops (nested loops included) that store into an array.  They
        stay ``while`` loops: measured under numba 0.68, bubble_sort's inner loop as a
        ``for`` over a range ran 2.5x slower (LLVM unrolled it and no longer kept
        ``a[j + 1]`` in a register for the next iteration's ``a[j]``), while loops that only
        read ran as fast either way.  O(blocks * loop nesting)."""
        out: set = set()
        for b in self.blocks:
            if any(n.writes_memory for n in b.nodes):
                h = b.loop
                while h is not None and h not in out:
                    out.add(h)
                    h = self.parent[h]
        return out

    def _after_exit(self, h) -> set:
        """The blocks reached from the normal exit of loop ``h`` (its header's false side)
        before ``h`` runs again: where its counter still holds the value that ended the
        loop.  (A read of the counter is dominated by ``h``, so a path that enters ``h``
        again assigns it first.)  O(blocks), run only for a counter read outside its loop."""
        seen, stack = set(), [h.succs[1]]
        while stack:
            b = stack.pop()
            if b in seen or b is h:
                continue
            seen.add(b)
            stack.extend(b.succs)
        return seen

    def in_loop(self, b, h) -> bool:
        """Is block ``b`` in the loop headed by ``h``?  O(loop nesting)."""
        x = b.loop
        while x is not None and x is not h:
            if x.depth < h.depth:
                return False
            x = self.parent[x]
        return x is h

    def construct(self, y, out: list, ctx: list) -> Iterator:
        if type(y.head) is Loop:
            yield self.loop(y, out, ctx)
        else:
            yield self.level(y, out, ctx)

    def _new_sel(self, prefix: str) -> str:
        self._sel += 1
        return f"_{prefix}{self._sel}"

    def level(self, x, out: list, ctx: list) -> Iterator:
        members = [x] + self.at_level[x]
        if len(members) == 1:
            yield self.block_code(x, out, ctx)
            return
        lv = _Level(members, self._new_sel("s"))
        out.append(_Lazy(self._phi_inits(lv, members[1:])))
        out.append(_Lazy(lv.init))
        ctx.append(lv)
        yield self.block_code(x, out, ctx)
        yield self.members(lv, 1, out, ctx)
        ctx.pop()

    def members(self, lv: _Level, first: int, out: list, ctx: list) -> Iterator:
        for j in range(first, len(lv.members)):
            lv.pos = j
            y = lv.members[j]
            if lv.pending > j:
                lv.guarded.add(j)
                if j not in lv.targeted:
                    # every branch to it was cut by a decided test: never run, and its code
                    # may read values of blocks that were not written either
                    continue
                guard = _If(f"{lv.sel} == {j}")
                out.append(guard)
                yield self.construct(y, guard.then, ctx)
            else:
                yield self.construct(y, out, ctx)

    def loop(self, h, out: list, ctx: list) -> Iterator:
        self._loops_open += 1
        if self._loops_open > _MAX_LOOPS:
            raise SonError(f"{self.g.name}: loops nested more than {_MAX_LOOPS} deep cannot be written as "
                           "Python source")
        exits = sorted(self.at_out[h], key=lambda b: b.id)
        outlv = _Level(exits, self._new_sel("s")) if exits else None
        w = _While()
        r = self.ranges.get(h)
        if r is not None:
            r.node = w
            start = _unparen(r.start) if r.start is not None else f"v{r.phi.nid}"
            stop = _unparen(self.text(r.stop))
            args = [stop] if start == "0" and r.step == 1 else [start, stop]
            if r.step != 1:
                args.append(str(r.step))
            w.head = f"for v{r.phi.nid} in range({', '.join(args)}):"
        frame = _LoopFrame(h, w, outlv, self._new_sel("f"))
        if outlv is not None:
            out.append(_Lazy(self._phi_inits(outlv, exits)))
            out.append(_Lazy(outlv.init))
            outlv.pos = -1
            ctx.append(outlv)
        out.append(_Lazy(frame.init))
        out.append(w)
        ctx.append(frame)
        yield self.level(h, w.body, ctx)
        ctx.pop()
        self._loops_open -= 1
        for (kind, target), key in list(frame.deferred.items()):
            guard = _If(f"{frame.flag} == {key}")
            out.append(guard)
            self.resolve(guard.then, ctx, kind, target)
        if outlv is not None:
            yield self.members(outlv, 0, out, ctx)
            ctx.pop()

    def block_code(self, b, out: list, ctx: list) -> Iterator:
        if b.id:
            out.append(_Comment(f"# B{b.id}"))
        tail = next((n for n in b.nodes if n in self.tail_calls), None)
        for n in b.nodes:
            if n is tail:  # the function's own call as its last act: the next round of its loop
                out.append(self._tail_call_text(n))
                out.append(_Exit("continue"))
                return
            e = EMIT[type(n)]
            if self.mixed and (n in self.mixed or (e.role == "stmt" and any(x in self.mixed
                                                                            for x in n.inputs[1:]))):
                if n in self.mixed:
                    self._mixed_code(n, out)
                else:
                    self._cases_code(self._cases(n, lambda ops, n=n, e=e: [e.fn(n, ops)]), out)
            elif e.role == "stmt":
                out.append(e.fn(n, self.operands(n)))
            elif e.role in ("expr", "alloc") and n not in self.inline and self._constant(n) is None:
                out.append(f"v{n.nid} = {self.expression(n)}")
            if n in self.booltag:
                out.append(self._tag_code(n))
        t = b.term
        tt = type(t)
        if tt is Return:
            out.append(_Exit(self._return_text(t.values)))
        elif tt is Raise:
            out.append(_Exit(_raise_text(t)))
        elif b in self.ranges:
            yield self.range_header(b, out, ctx)
        elif tt is If and len(b.succs) == 2 and self._fuse_guards(b, out):
            last = self._guard_chain(b)[-1]
            yield self.jump(out, ctx, last, last.succs[1])
        elif tt is If and len(b.succs) == 2:
            node = _If(self._condition(t.inputs[1]))
            out.append(node)
            yield self.jump(node.then, ctx, b, b.succs[0])
            yield self.jump(node.orelse, ctx, b, b.succs[1])
        elif len(b.succs) == 1:
            yield self.jump(out, ctx, b, b.succs[0])
        else:
            raise SonError(f"code generation: block B{b.id} ends in {t!r} with {len(b.succs)} successors")

    def _condition(self, c: Node) -> str:
        """The text of branch condition ``c``: ``if x:`` (``if not x:``) for an inlined
        ``bool(x)`` (``not bool(x)``) of a number: numba tests the truth of a condition
        itself, and the call would be one more function for its type inference to
        resolve."""
        negate = type(c) is Not and c in self.inline
        x = c.inputs[1] if negate else c
        if type(x) is ToBool and x in self.inline and x.inputs[1] not in self.mixed \
                and _kind(x.inputs[1]) in ("int", "float", "bool"):
            return _negate(_strip(self.text(x.inputs[1]))) if negate else _strip(self.text(x.inputs[1]))
        return _strip(self.text(c))

    def range_header(self, h, out: list, ctx: list) -> Iterator:
        """The test of a ``for`` loop's header is the ``for`` itself: the body is the true
        side, the false side (the range exhausted) its ``else`` -- without the ``break``
        that leaves the loop, which would leave the enclosing loop from there."""
        w = self.ranges[h].node
        yield self.jump(out, ctx, h, h.succs[0])
        before = w.breaks
        yield self.jump(w.orelse, ctx, h, h.succs[1])
        if w.breaks != before:
            last = next((x for x in reversed(w.orelse) if type(x) is not _Comment), None)
            if w.breaks != before + 1 or type(last) is not _Exit or last.text != "break":
                raise SonError(f"code generation: the exit of loop B{h.id} is not one break "
                               "(a structuring bug)")
            w.orelse.remove(last)
            w.breaks = before

    # ------------------------------------------------------------------ guards
    def _raise_block(self, r) -> bool:
        """Does ``r`` only raise (written where it is branched to, no code of its own)?"""
        return type(r.term) is Raise and r not in self.placed and not self._has_code(r)

    def _has_code(self, b) -> bool:
        for n in b.nodes:
            role = EMIT[type(n)].role
            if role == "stmt" or (role in ("expr", "alloc") and n not in self.inline
                                  and self._constant(n) is None):
                return True
        return False

    def _guard_chain(self, b) -> list:
        """Blocks ``b, c1, c2, ...`` each ending in ``if cond: raise``, where each ci is the
        false side of the one before and computes nothing but its condition."""
        chain = [b]
        while True:
            x = chain[-1]
            if not (type(x.term) is If and len(x.succs) == 2 and self._raise_block(x.succs[0])
                    and _kind(x.term.inputs[1]) == "bool"):
                chain.pop()
                return chain
            c = x.succs[1]
            if c in self.placed or type(c.head) is not CProj or self._has_code(c) or len(chain) >= 8:
                return chain
            if any(n.reads_memory for n in c.nodes):  # a read the guards before it protect:
                return chain  # evaluated early by the fused test, it would run out of bounds
            chain.append(c)

    def _fuse_guards(self, b, out: list) -> bool:
        """Consecutive guards test once: ``if c1 | c2: (if c1: raise A) raise B`` --
        one branch on the hot path instead of one per guard (e.g. ``int(x)``'s NaN and
        range checks).  The conditions are pure; on the raising path they are
        evaluated again to pick the exception.

        Guards of one math call (``MathError(r, x...)``: a NaN or an infinity from
        arguments that were not) are only possible when ``r`` is not finite, so they
        sit under ``if not math.isfinite(r):``, one comparison on the hot path."""
        chain = self._guard_chain(b)
        conds = [self.text(x.term.inputs[1]) for x in chain]
        preds = [x.term.inputs[1] for x in chain]
        r = preds[0].inputs[1] if chain and type(preds[0]) is MathError else None
        if r is not None and _kind(r) == "float" and all(type(p) is MathError and p.inputs[1] is r
                                                         for p in preds):
            node = _If(f"not math.isfinite({self.text(r)})")
            for x, c in zip(chain, conds):
                inner = _If(_strip(c))
                inner.then.append(_Exit(_raise_text(x.succs[0].term)))
                node.then.append(inner)
            out.append(node)
            return True
        if len(chain) < 2:
            return False
        test = " | ".join(_paren(c) for c in conds)
        if len(preds) == 2:
            if not self.mixed or preds[0].inputs[1] not in self.mixed:  # (a mixed x: tested per kind)
                test = _outside_range(preds[0], preds[1], self.text) or test
        node = _If(test)
        for x, c in zip(chain[:-1], conds[:-1]):
            inner = _If(_strip(c))
            inner.then.append(_Exit(_raise_text(x.succs[0].term)))
            node.then.append(inner)
        node.then.append(_Exit(_raise_text(chain[-1].succs[0].term)))
        out.append(node)
        return True

    def jump(self, out: list, ctx: list, src, t) -> Iterator:
        """Code for the edge ``src -> t``: the phi moves, then the branch."""
        if t in self.returns:
            k = t.preds.index(src) + 1
            vs = [v.inputs[k] if type(v) is Phi and v.inputs[0] is t.head else v for v in t.term.values]
            out.append(_Exit(self._return_text(vs)))
            return
        if src not in self.forwarded:
            self.moves(out, src, t)
        if type(t.head) is Loop and self.in_loop(src, t):
            self.resolve(out, ctx, "continue", t)
        elif t not in self.placed:
            yield self.construct(t, out, ctx)
        else:
            if self._forwarder(t):
                self.moves(out, t, t.succs[0])
                self.forwarded.add(t)
            self.resolve(out, ctx, "goto", t)

    def _forwarder(self, t) -> bool:
        """Is ``t`` (reached by a branch written elsewhere: a loop exit, a goto) a block
        that only passes control on, with phi moves for its successor?  Then the moves are
        written at the branch instead: nothing runs between the two, and ``t`` is left
        empty, so the selector that would pick it after the loop is not needed (numba
        compiles one variable and its tests less: newton_sqrt's exit).  O(nodes of t)."""
        return (len(t.preds) == 1 and len(t.succs) == 1 and not t.phis and t.succs[0] not in self.returns
                and type(t.term) not in (Return, Raise) and not self._has_code(t)
                and not any(n in self.mixed for n in t.nodes))

    def _return_text(self, values: list[Node]) -> str:
        """``return v`` for one value, ``return (v1, v2)`` (a tuple) for several; a value
        at a mixed position as ``(is_float, int, float)``, at a position that may hold a
        bool (``self.bool_at``) as ``(is_float, int, float, is_bool)``."""
        texts = []
        for k, v in enumerate(values):
            if v.type is NONE or (k not in self.mixed_at and k not in self.bool_at):
                texts.append(_strip(self.text(v)))
            elif k not in self.bool_at:
                texts.append(f"({', '.join(self.slots(v))})")
            else:  # with its tag: (is_float, int, float, is_bool)
                slots = self.slots(v) if v in self.mixed else self._case_slots(v, self.text(v))
                texts.append(f"({', '.join(slots)}, {self.tag(v)})")
        if len(values) == 1:
            return f"return {texts[0]}"
        if getattr(self, "counts_depth", False):
            texts = [unliteral(v.type, t) for v, t in zip(values, texts)]
        return f"return ({', '.join(texts)})"

    def resolve(self, out: list, ctx: list, kind: str, t) -> None:
        """Branch to ``t`` (kind 'goto') or to the next iteration of loop ``t`` ('continue')
        from the innermost frame of ``ctx`` outwards."""
        passed: list[_Level] = []
        for i in range(len(ctx) - 1, -1, -1):
            f = ctx[i]
            if type(f) is _Level:
                k = f.index.get(t) if kind == "goto" else None
                if k is not None and k > f.pos:
                    for lv in passed:
                        lv.pending = _OUTWARD
                    f.pending = max(f.pending, k)
                    out.append(_Lazy(f.set(k)))
                    return
                passed.append(f)
                continue
            # a loop: continue it, break out to its out-level, or break and defer
            if kind == "continue" and f.header is t:
                out.append(_Exit("continue"))
                return
            f.node.breaks += 1
            if kind == "goto" and f.out is not None and t in f.out.index:
                k = f.out.index[t]
                f.out.pending = max(f.out.pending, k)
                out.append(_Lazy(f.out.set(k)))
                out.append(_Exit("break"))
                return
            key = f.deferred.setdefault((kind, t), len(f.deferred) + 1)
            out.append(_Set.of(f.flag, key))
            out.append(_Exit("break"))
            return
        raise SonError(f"code generation: no place for block B{t.id} (a structuring bug)")

    def _phi_inits(self, lv: _Level, blocks: list) -> Callable[[], str | None]:
        """Placeholder values for the scalar Phis of ``blocks``, written before a level only
        if one of its guarded members is never branched to: a branch the structurer proved
        never taken (a decided test, ``Never``) leaves that member, and the Phis it would
        assign, without an assignment on a path numba sees, and numba refuses a variable
        that may be undefined where it is read, although no run reaches that read.
        O(Phis of ``blocks``)."""
        zero = {"int": "0", "float": "0.0", "bool": "False"}
        names: list[str] = []
        for b in blocks:
            for p in b.phis:
                if p.type is MEM:
                    continue
                if p in self.mixed:
                    names.extend(f"{v} = {z}" for v, z in zip(self.slots(p), ("False", "0", "0.0")))
                elif _kind(p) in zero:
                    names.append(f"v{p.nid} = {zero[_kind(p)]}")
                if p in self.booltag:
                    names.append(f"v{p.nid}_b = False")
        text = "; ".join(names) or None
        return lambda: text if lv.dead_member() else None

    def moves(self, out: list, src, t) -> None:
        if not t.phis:
            return
        mv = [(p, v) for p, v in self.s.moves(src, t) if p.type is not MEM]
        r = self.ranges.get(t)
        if r is not None and (not r.keep_move or src is t.preds[1]):
            mv = [(p, v) for p, v in mv if p is not r.phi]  # the for statement assigns it
        if not mv:
            return
        if self.mixed and any(p in self.mixed for p, _ in mv):  # three variables per mixed phi
            lhs, rhs = [], []
            for p, v in mv:
                if p in self.mixed:
                    lhs.extend(self.slots(p))
                    rhs.extend(self.slots(v))
                else:
                    lhs.append(f"v{p.nid}")
                    rhs.append(self._move_text(p, v))
        else:
            lhs = [f"v{p.nid}" for p, _ in mv]
            rhs = [self._move_text(p, v) for p, v in mv]
        for p, v in mv:  # and the tag of a phi that may hold a returned bool
            if p in self.booltag:
                lhs.append(f"v{p.nid}_b")
                rhs.append(self.tag(v))
        if len(lhs) == 1:
            out.append(f"{lhs[0]} = {rhs[0]}")
            return
        targets = set(lhs)
        if any(re.search(r"\b" + re.escape(x) + r"\b", r) for r in rhs for x in targets):
            out.append(f"{', '.join(lhs)} = {', '.join(rhs)}")
        else:
            out.extend(f"{a} = {e}" for a, e in zip(lhs, rhs))

    def _move_text(self, p: Node, v: Node) -> str:
        return f"int({self.text(v)})" if _kind(p) == "int" and _kind(v) == "bool" else _strip(self.text(v))


def _outside_range(p1: Node, p2: Node, text: Callable[[Node], str]) -> str | None:
    """``isnan(x) | (x < lo) | (x >= hi)`` (the guards of ``int(x)``) as one test that is
    also true for NaN: ``not (abs(x) < hi) and x != lo`` where ``lo == -hi`` (int64's
    limits: one compare on the path taken; benchmarks/kernels.py histogram 1.64x
    numba.njit's time with the chained test below, 1.3x with this one), else the chained
    ``not (lo <= x < hi)`` (measured 25% faster in a loop than testing NaN separately)."""
    if type(p1) is not IsNan or type(p2) is not BitOr:
        return None
    x = p1.inputs[1]
    a, b = p2.inputs[1], p2.inputs[2]
    if type(a) is GE:
        a, b = b, a
    if not (type(a) is LT and type(b) is GE and a.inputs[1] is x and b.inputs[1] is x
            and _const(a.inputs[2]) is not None and _const(b.inputs[2]) is not None):
        return None
    lo, hi = _const(a.inputs[2]), _const(b.inputs[2])
    if lo == -hi:
        return f"not (abs({text(x)}) < {text(b.inputs[2])}) and {text(x)} != {text(a.inputs[2])}"
    return f"not ({text(a.inputs[2])} <= {text(x)} < {text(b.inputs[2])})"


def _raise_text(r: Raise) -> str:
    """``raise E('message')``; a class not builtin is imported at the top of the
    kernel's module under an alias (``EMIT_STATE.exceptions``)."""
    cls = r.exc
    if cls.__module__ == "builtins":
        return f"raise {cls.__name__}({r.message!r})"
    alias = f"_son_exc_{cls.__module__.replace('.', '_')}_{cls.__qualname__}"
    imports = getattr(EMIT_STATE, "exceptions", None)  # None: text for a listing, not a module
    if imports is not None:
        imports.add(f"from {cls.__module__} import {cls.__qualname__} as {alias}")
    return f"raise {alias}({r.message!r})"
