"""The scheduler: blocks, dominators, the loop tree, Global Code Motion and the Schedule contract.

Dominators and loops are compared against brute-force definitions ("a dominates
b iff b cannot be reached from the entry once a is removed"; a natural loop is
its header plus every block reaching the back edge without passing the
header).  Placement tests assert where GCM puts chosen nodes.  A small block
interpreter runs a Schedule exactly as a code generator would (each block's
``nodes`` in order with each node's own ``eval``, the ``moves`` on every edge,
the If's predicate choosing ``succs``) and is checked against CPython on the
whole corpus: that proves the order and the moves, without Numba.
"""

from __future__ import annotations

import functools
from collections import deque

import corpus
import corpus_suites
import numpy as np
import pytest
from conftest import _outcome, run_python
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_scale import branches_and_loops_source, straight_line_source

import son
from son.exec.interp import _check_args
from son.nodes import (
    EQ,
    GT,
    INT,
    NE,
    Add,
    Constant,
    CProj,
    FloorDiv,
    If,
    Load,
    Loop,
    Mul,
    Phi,
    Proj,
    Raise,
    Refine,
    Region,
    Return,
    Store,
    XCtrl,
    constant,
)
from son.schedule import Block, Schedule, dominator_lca, schedule

CASES = corpus.CASES + corpus_suites.CASES
CASE_PARAMS = [pytest.param(c, id=c.id) for c in CASES]
PEEPHOLE = [pytest.param(False, id="raw"), pytest.param(True, id="peephole")]
RUN_SETTINGS = settings(max_examples=6, deadline=None, derandomize=True, database=None,
                        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@functools.cache
def sched_of(fn, peephole: bool = True) -> Schedule:
    return schedule(son.parse(fn, peephole=peephole))


# ====================================================================== the block interpreter
def run_blocks(s: Schedule, *args):
    """Run schedule ``s`` block by block, as generated code would."""
    g = s.graph
    args = _check_args(g, args)
    vals: dict = {}
    b = s.blocks[0]
    while True:
        for n in b.nodes:  # a value computed here in an earlier visit must not be read before its def
            vals.pop(n, None)
        for n in b.nodes:
            if type(n) is Proj:
                vals[n] = None if n.index == 1 else args[n.index - 2]
            else:
                vals[n] = n.eval(*[vals[x] for x in n.inputs[1:]])
        t = b.term
        if type(t) is Return:
            out = [vals[v] for v in t.values]
            return out[0] if len(out) == 1 else tuple(out)
        if type(t) is Raise:
            raise t.exc(t.message)
        nxt = b.succs[0 if vals[t.pred] else 1] if type(t) is If and len(b.succs) == 2 else b.succs[0]
        moves = s.moves(b, nxt)
        new = [vals[v] for _, v in moves]  # parallel copies: read every value first
        for p in nxt.phis:
            if p not in {q for q, _ in moves}:
                assert p.inputs[nxt.preds.index(b) + 1] is p, f"{p!r} has no move on B{b.id}->B{nxt.id}"
        for (p, _), v in zip(moves, new):
            vals[p] = v
        b = nxt


def run_scheduled(s: Schedule, args):
    return _outcome(lambda *a: run_blocks(s, *a), args)


# ====================================================================== brute force references
def brute_dominators(s: Schedule) -> dict[Block, set[Block]]:
    """a -> the blocks a dominates: those unreachable from the entry once a is removed."""
    out = {}
    for a in s.blocks:
        seen = set()
        if a is not s.blocks[0]:
            seen.add(s.blocks[0])
            work = deque([s.blocks[0]])
            while work:
                for x in work.popleft().succs:
                    if x is not a and x not in seen:
                        seen.add(x)
                        work.append(x)
        out[a] = {b for b in s.blocks if b not in seen}
    return out


def brute_loops(s: Schedule) -> dict[Block, set[Block]]:
    """Loop header -> its natural loop (header + blocks reaching the back edge avoiding it)."""
    loops = {}
    for h in s.blocks:
        if type(h.head) is not Loop:
            continue
        body, work = {h}, [h.preds[1]]
        while work:
            x = work.pop()
            if x not in body:
                body.add(x)
                work.extend(x.preds)
        loops[h] = body
    return loops


def assert_dominators_and_loops(s: Schedule) -> None:
    dom = brute_dominators(s)
    for a in s.blocks:
        for b in s.blocks:
            assert s.dominates(a, b) == (b in dom[a]), f"dominates(B{a.id}, B{b.id})"
    for b in s.blocks[1:]:
        strict = [a for a in s.blocks if a is not b and b in dom[a]]
        deepest = [a for a in strict if all(a in dom[c] for c in strict)]
        assert deepest == [b.idom], f"idom of B{b.id}"
        for a in s.blocks:
            lca = dominator_lca(a, b)
            common = [c for c in s.blocks if a in dom[c] and b in dom[c]]
            assert lca in common and all(lca in dom[c] for c in common)
    loops = brute_loops(s)
    for b in s.blocks:
        around = [h for h, body in loops.items() if b in body]
        assert b.depth == len(around), f"depth of B{b.id}"
        inner = min(around, key=lambda h: len(loops[h])) if around else None
        assert b.loop is inner, f"innermost loop of B{b.id}"


# ====================================================================== functions under test
def diamond(a: int, b: int):
    if a > b:
        x = a - b
    else:
        x = b - a
    return x * 2


def nested_loops(n: int, m: int):
    s = 0
    for i in range(n):
        for j in range(m):
            s += i * j
        s += 1
    return s


def loop_with_exits(a: np.ndarray, t: float):
    i = 0
    while i < len(a):
        if a[i] > t:
            return i
        if a[i] < -t:
            break
        i += 1
    return -1


def triple_nest_with_continue(n: int):
    s = 0
    for i in range(n):
        j = 0
        while j < i:
            j += 1
            if j % 3 == 0:
                continue
            for k in range(j):
                s += k
    return s


def invariant_in_loop(a: int, b: int, n: int):
    s = 0
    for i in range(n):
        s += a * b + i
    return s


def used_in_one_branch(a: int, b: int, c: bool):
    t = a * b
    if c:
        return t + 1
    return 0


def load_then_store(a: np.ndarray, i: int):
    x = a[i]
    a[i] = 7.0
    return x + a[i]


def load_then_store_later(a: np.ndarray, c: bool):
    x = a[0]
    if c:
        a[0] = x + 1.0
    return x


def guarded_division(a: int, b: int):
    if b != 0:
        return a // b
    return 0


def invariant_division_in_loop(a: int, b: int, n: int):
    s = 0
    for _ in range(n):
        s += a // b
    return s


def fib(n: int):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def select(c: bool, a: int):
    x = a + 1 if c else a - 1
    return x


def add(a: int, b: int):
    return a + b


def countdown(n: int):
    while n > 0:
        n -= 1
    return n


def two_returns(a: int):
    if a > 0:
        return a * 3
    return a - 3


def spin_until(n: int):
    i = 0
    while True:
        i += 2
        if i > n:
            return i


# ====================================================================== dominators and loops
@pytest.mark.parametrize("fn", [diamond, nested_loops, loop_with_exits, triple_nest_with_continue,
                                used_in_one_branch, guarded_division, fib])
@pytest.mark.parametrize("peephole", PEEPHOLE)
def test_dominators_and_loops_match_brute_force(fn, peephole):
    assert_dominators_and_loops(sched_of(fn, peephole))


@pytest.mark.parametrize("peephole", PEEPHOLE)
@pytest.mark.parametrize("case", CASE_PARAMS)
def test_dominators_and_loops_match_brute_force_on_corpus(case, peephole):
    assert_dominators_and_loops(sched_of(case.fn, peephole))


def test_diamond_blocks_and_idoms():
    s = sched_of(diamond)
    entry = s.blocks[0]
    assert type(entry.term) is If and len(entry.succs) == 2
    t, f = entry.succs
    assert type(t.head) is CProj and t.head.index == 0 and type(f.head) is CProj and f.head.index == 1
    (merge,) = t.succs
    assert f.succs == [merge] and type(merge.head) is Region and merge.preds == [t, f]
    assert t.idom is entry and f.idom is entry and merge.idom is entry
    assert [b.id for b in s.blocks] == list(range(4)) and all(b.depth == 0 for b in s.blocks)


def test_loop_depths_and_headers_of_nested_loops():
    s = sched_of(nested_loops)
    headers = [b for b in s.blocks if type(b.head) is Loop]
    assert len(headers) == 2
    outer, inner = headers
    assert (outer.depth, inner.depth) == (1, 2)
    assert outer.loop is outer and inner.loop is inner and inner.outer is outer and outer.outer is None
    assert outer.preds[0].depth == 0 and inner.preds[0].depth == 1
    assert inner.preds[1].loop is inner and inner.preds[1].depth == 2
    mul = next(n for n in s.graph.nodes() if type(n) is Mul)
    assert s.block_of[mul].depth == 2  # i*j varies with j
    ret = next(n for n in s.graph.nodes() if type(n) is Return)
    assert s.block_of[ret].depth == 0


def test_loop_exits_leave_the_loop():
    s = sched_of(loop_with_exits)
    (header,) = [b for b in s.blocks if type(b.head) is Loop]
    for r in s.graph.nodes():
        if type(r) is Return:
            assert s.block_of[r].depth == 0 and s.block_of[r].loop is None


# ====================================================================== placement
def test_loop_invariant_arithmetic_is_hoisted():
    for peephole in (True, False):
        s = sched_of(invariant_in_loop, peephole)
        mul = next(n for n in s.graph.nodes() if type(n) is Mul)
        add_i = [n for n in s.graph.nodes() if type(n) is Add and any(type(x) is Phi for x in n.inputs)]
        assert s.block_of[mul].depth == 0
        assert add_i and all(s.block_of[n].depth == 1 for n in add_i)
        (header,) = [b for b in s.blocks if type(b.head) is Loop]
        assert s.dominates(s.block_of[mul], header)
        # hoisted no further than needed: the deepest depth-0 block above the loop
        assert s.block_of[mul] is header.preds[0] or s.block_of[mul] is header.idom


def test_code_used_in_one_branch_sinks_into_it():
    s = sched_of(used_in_one_branch)
    mul = next(n for n in s.graph.nodes() if type(n) is Mul)
    b = s.block_of[mul]
    entry = s.blocks[0]
    assert b is not entry and type(b.head) is CProj and b.head.index == 0
    assert b is entry.succs[0]
    assert mul not in entry.nodes


def _load_and_store_in_one_block():
    """``load_then_store`` with its Store hung from the first Load's guard (the same
    predicate, so the same semantics) and that Load rebuilt with a larger id than the Store."""
    g = son.parse(load_then_store)
    (st,) = [n for n in g.nodes() if type(n) is Store]
    old = next(n for n in g.nodes() if type(n) is Load and n.inputs[1] is st.inputs[1])
    st.set_input(0, old.inputs[0])
    ld = Load(g, *old.inputs)
    old.subsume(ld)
    assert ld.nid > st.nid
    return g, ld, st


def test_load_is_ordered_before_the_store_that_overwrites_it_in_one_block():
    """Only the anti-dependence orders the Load first (ready nodes go by id otherwise)."""
    g, ld, st = _load_and_store_in_one_block()
    s = schedule(g)
    b = s.block_of[st]
    assert s.block_of[ld] is b
    assert b.nodes.index(ld) < b.nodes.index(st)
    after = [n for n in g.nodes() if type(n) is Load and n.inputs[1] is st]
    assert after and all(s.dominates(b, s.block_of[n]) for n in after)
    a = np.array([1.5, 2.5])
    assert run_blocks(s, a.copy(), 1) == load_then_store(a.copy(), 1) == 9.5


def test_loads_and_stores_in_different_blocks_keep_program_order():
    s = sched_of(load_then_store)
    (st,) = [n for n in s.graph.nodes() if type(n) is Store]
    for ld in (n for n in s.graph.nodes() if type(n) is Load):
        if ld.inputs[1] is st.inputs[1]:  # reads the memory before the store
            assert s.dominates(s.block_of[ld], s.block_of[st])
        else:
            assert ld.inputs[1] is st and s.dominates(s.block_of[st], s.block_of[ld])


def test_floating_load_is_placed_before_stores_in_other_blocks():
    """A Load without control (the frontend never makes one) floats; the anti-dependence
    keeps it above the Store in the branch, although its only use is after the merge."""
    g = son.parse(load_then_store_later)
    (ld,) = [n for n in g.nodes() if type(n) is Load]
    (st,) = [n for n in g.nodes() if type(n) is Store]
    ld.set_input(0, None)
    s = schedule(g)
    bl, bs = s.block_of[ld], s.block_of[st]
    assert bl is not bs and s.dominates(bl, bs)
    ret = next(n for n in g.nodes() if type(n) is Return)
    assert s.block_of[ret] is not bl  # without the anti-dependence the load would sink here
    for c in (True, False):
        a = np.array([2.0])
        assert run_blocks(s, a, c) == 2.0 and a[0] == (3.0 if c else 2.0)


def _guard_false_proj(s: Schedule, div) -> CProj:
    """The non-raising projection of the zero guard of ``div``'s divisor."""
    for n in s.graph.nodes():
        if type(n) is If and type(n.pred) is EQ and n.pred.inputs[1] is div.inputs[2]:
            return n.proj(1)
    raise AssertionError("no zero guard")


def test_guarded_division_stays_under_its_guard():
    for peephole in (True, False):
        s = sched_of(guarded_division, peephole)
        (div,) = [n for n in s.graph.nodes() if type(n) is FloorDiv]
        f = _guard_false_proj(s, div)
        assert div.inputs[0] is not None
        assert s.dominates(s.block_of[f], s.block_of[div])
        cond = next(n for n in s.graph.nodes() if type(n) is If and type(n.pred) is NE)
        assert s.dominates(s.block_of[cond.proj(0)], s.block_of[div])
        assert run_blocks(s, 7, 0) == 0 and run_blocks(s, 7, 2) == 3


def test_loop_invariant_division_is_not_hoisted_above_its_guard():
    s = sched_of(invariant_division_in_loop)
    (div,) = [n for n in s.graph.nodes() if type(n) is FloorDiv]
    assert s.block_of[div].depth == 1
    assert s.dominates(s.block_of[_guard_false_proj(s, div)], s.block_of[div])
    assert run_blocks(s, 5, 0, 0) == 0  # the loop never runs: no ZeroDivisionError
    with pytest.raises(ZeroDivisionError):
        run_blocks(s, 5, 0, 1)
    assert run_blocks(s, 7, 2, 3) == 9


# ====================================================================== phi moves
def test_phi_moves_on_the_loop_back_edge_are_parallel():
    s = sched_of(fib)
    (header,) = [b for b in s.blocks if type(b.head) is Loop]
    entry, latch = header.preds
    pa, pb, *rest = header.phis
    ret = next(n for n in s.graph.nodes() if type(n) is Return)
    if ret.value is not pa:
        pa, pb = pb, pa
    assert ret.value is pa
    back = dict(s.moves(latch, header))
    assert back[pa] is pb  # a <- b
    assert type(back[pb]) is Add and set(back[pb].inputs[1:]) == {pa, pb}  # b <- a + b (old a, old b)
    first = dict(s.moves(entry, header))
    assert first[pa].label == "0" and first[pb].label == "1"
    assert [run_blocks(s, n) for n in range(8)] == [0, 1, 1, 2, 3, 5, 8, 13]
    with pytest.raises(KeyError):
        s.moves(header, entry)


def test_phi_moves_at_a_merge_bring_each_sides_value():
    s = sched_of(select)
    (merge,) = [b for b in s.blocks if type(b.head) is Region]
    (phi,) = merge.phis
    for i, p in enumerate(merge.preds):
        assert s.moves(p, merge) == [(phi, phi.inputs[i + 1])]
        assert s.dominates(s.block_of[phi.inputs[i + 1]], p)
    assert run_blocks(s, True, 4) == 5 and run_blocks(s, False, 4) == 3


def test_listing_of_a_straight_line_function():
    s = sched_of(add)
    assert str(s) == "\n".join([
        "schedule add(a: int, b: int): 1 blocks",
        "B0 (Start %0, depth 0)",
        "  %3 = mem",
        "  %5 = a",
        "  %6 = b",
        "  %7 = (a+b)",
        "  return %7  [mem mem]",
    ])


def test_listing_of_a_loop_shows_blocks_phis_and_moves():
    s = sched_of(countdown)
    text = str(s)
    (header,) = [b for b in s.blocks if type(b.head) is Loop]
    (phi,) = header.phis
    entry, latch = header.preds
    assert f"B{header.id} (Loop %{header.head.nid}, depth 1) preds B{entry.id} B{latch.id}" in text
    assert f"  %{phi.nid} = phi(n, %{phi.inputs[2].nid})" in text
    assert f"  moves B{latch.id}->B{header.id}: %{phi.nid} <- %{phi.inputs[2].nid}" in text
    assert f"  moves B{entry.id}->B{header.id}: %{phi.nid} <- n" in text
    # the peephole turns n-1 into n+(-1), of n refined by the loop's test n > 0
    step = phi.inputs[2]
    assert type(step.inputs[1]) is Refine and step.inputs[1].inputs[1] is phi
    assert f"  %{step.nid} = (%{step.inputs[1].nid}+-1)" in text
    assert f"  %{step.inputs[1].nid} = refine[gt](%{phi.nid}, 0)" in text


# ====================================================================== the whole corpus
@pytest.mark.parametrize("peephole", PEEPHOLE)
@pytest.mark.parametrize("case", CASE_PARAMS)
def test_schedule_checks_and_runs_like_cpython(case, peephole):
    s = sched_of(case.fn, peephole)
    s.check()
    live = s.graph.live()
    assert all(n in s.block_of for n in live if n is not s.graph.stop)
    for args in case.examples:
        assert run_scheduled(s, args) == run_python(case.fn, args), f"{case.id}{tuple(args)!r}"

    @RUN_SETTINGS
    @given(st.tuples(*case.strategies))
    def agree(args):
        assert run_scheduled(s, args) == run_python(case.fn, args), f"{case.id}{tuple(args)!r}"

    agree()


# ====================================================================== check() catches mistakes
def _fresh(fn) -> Schedule:
    return schedule(son.parse(fn))


def test_check_catches_an_input_ordered_after_its_user():
    s = _fresh(load_then_store)
    (add_,) = [n for n in s.graph.nodes() if type(n) is Add]  # x + a[i], after the second load
    b = s.block_of[add_]
    assert any(s.block_of[x] is b for x in add_.inputs[1:])
    s.check()
    b.nodes.remove(add_)
    b.nodes.insert(0, add_)
    with pytest.raises(AssertionError, match="is ordered before its input"):
        s.check()


def test_check_catches_a_load_moved_after_the_store():
    g, ld, st_ = _load_and_store_in_one_block()
    s = schedule(g)
    b = s.block_of[ld]
    b.nodes.remove(ld)
    b.nodes.insert(b.nodes.index(st_) + 1, ld)
    assert all(x not in b.nodes or b.nodes.index(x) < b.nodes.index(ld) for x in ld.inputs[1:])
    with pytest.raises(AssertionError, match="overwrites but is ordered after it"):
        s.check()


def test_check_catches_a_node_in_a_block_its_input_does_not_dominate():
    s = _fresh(used_in_one_branch)
    mul = next(n for n in s.graph.nodes() if type(n) is Mul)
    user = next(iter(mul.outputs))
    b = s.block_of[user]
    entry = s.blocks[0]
    b.nodes.remove(user)
    entry.nodes.append(user)
    s.block_of[user] = entry
    with pytest.raises(AssertionError, match="does not dominate it"):
        s.check()


def test_check_catches_a_phi_input_not_available_in_its_predecessor():
    s = _fresh(select)
    (merge,) = [b for b in s.blocks if type(b.head) is Region]
    (phi,) = merge.phis
    v = phi.inputs[1]
    home = s.block_of[v]
    home.nodes.remove(v)
    merge.preds[1].nodes.append(v)
    s.block_of[v] = merge.preds[1]
    with pytest.raises(AssertionError, match="not available at the end of pred"):
        s.check()


def test_check_catches_a_node_left_unscheduled_and_a_pinned_node_moved():
    s = _fresh(used_in_one_branch)
    mul = next(n for n in s.graph.nodes() if type(n) is Mul)
    s.block_of[mul].nodes.remove(mul)
    with pytest.raises(AssertionError, match="not in the nodes of its block"):
        s.check()
    s = _fresh(guarded_division)
    (div,) = [n for n in s.graph.nodes() if type(n) is FloorDiv]
    s.block_of[div].nodes.remove(div)
    s.blocks[0].nodes.append(div)
    s.block_of[div] = s.blocks[0]
    with pytest.raises(AssertionError, match="is pinned to"):
        s.check()


def test_an_if_with_one_live_projection_falls_through():
    """A pass may delete one side of an If (here: the merge forgets the false side, which
    kills that projection); control then falls through the If inside one block."""
    g = son.parse(two_returns)
    (iff,) = [n for n in g.nodes() if type(n) is If]
    (region,) = [n for n in g.nodes() if type(n) is Region]
    (phi,) = region.phis()
    assert region.inputs[2] is iff.proj(1)
    phi.remove_input(2)
    region.remove_input(2)
    assert iff.proj(1) is None and iff.proj(0) is not None
    s = schedule(g)
    assert len(s.blocks) == 2
    entry, merge = s.blocks
    assert entry.cfg.index(iff) < entry.cfg.index(iff.proj(0)) == len(entry.cfg) - 1
    assert entry.term is iff.proj(0) and entry.succs == [merge] and merge.preds == [entry]
    assert s.moves(entry, merge) == [(phi, phi.inputs[1])]
    assert run_blocks(s, 5) == 15


def test_infinite_loop_exits_only_through_its_never_guard():
    s = sched_of(spin_until)
    (header,) = [b for b in s.blocks if type(b.head) is Loop]
    never = [b for b in s.blocks if type(b.term) is If and b.term.pred.label == "never"]
    assert len(never) == 1 and never[0].loop is header
    raise_blocks = [b for b in never[0].succs if type(b.term) is Raise]
    assert len(raise_blocks) == 1 and raise_blocks[0].depth == 0
    assert [run_blocks(s, n) for n in (-5, 0, 7)] == [2, 2, 8]


# ====================================================================== errors
def test_dead_control_still_attached_is_a_clear_error():
    g = son.parse(select, peephole=False)
    (region,) = [n for n in g.nodes() if type(n) is Region]
    region.set_input(1, XCtrl(g, g.start))
    with pytest.raises(son.SonError, match="dead control.*'peephole'"):
        schedule(g)


def test_a_cycle_through_a_region_instead_of_a_loop_is_a_clear_error():
    g = son.Graph("cyc", [("a", INT)])
    c0 = CProj(g, g.start, 0)
    mem, a = Proj(g, g.start, 1, "mem"), Proj(g, g.start, 2, "a")
    r = Region(g, c0, None)
    iff = If(g, r, GT(g, a, Constant(g, constant(0))))
    t, f = CProj(g, iff, 0), CProj(g, iff, 1)
    r.set_input(2, f)
    g.stop.add_input(Return(g, t, mem, a))
    with pytest.raises(son.SonError, match="closed by a Loop node"):
        schedule(g)


def test_son_schedule_is_the_scheduler():
    """``son.schedule`` is the package, callable as its ``schedule``."""
    assert son.schedule.schedule is schedule and callable(son.schedule)
    s = son.schedule(son.parse(add))
    assert isinstance(s, Schedule) and s.blocks[0].nodes


# ====================================================================== scale
def test_a_function_of_5000_statements_schedules_without_recursion():
    src = straight_line_source(5000)
    g = son.parse_source(src, peephole=False)
    s = schedule(g)
    assert len(s.blocks) > 1000 and sum(len(b.nodes) for b in s.blocks) >= 5000  # untyped: guards
    assert run_blocks(s, 3, 5) == son.interpret(g, 3, 5)


def test_many_branches_and_loops_schedule_and_run():
    src = branches_and_loops_source(400)
    g = son.parse_source(src)
    s = schedule(g)
    assert sum(type(b.head) is Loop for b in s.blocks) >= 150
    assert run_blocks(s, 5, 3) == son.interpret(g, 5, 3)
