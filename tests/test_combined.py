"""Click's combined analysis (``son.sccp.combined``): constants, reachability and
congruence found together.  Text-IR expectations for what only the combination
proves (twin induction variables), SCCP's checklist again (it must find all SCCP
finds), negative cases (what must not be merged), independence from the
evaluation order, and the whole corpus against CPython after the pass."""

from __future__ import annotations

import functools
import math
import random

import corpus
import corpus_suites
import numpy as np
import pytest
from conftest import run_python, run_son
from corpus import IntArray
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import son
from son.examples import twin_inductions
from son.nodes import Constant, Loop, Never, NewArray, Phi, Raise, ir
from son.nodes.types import FLOAT, INT, constant
from son.sccp.combined import analyze, combined
from son.sccp.sccp import sccp

CASES = corpus.CASES + corpus_suites.CASES
CASE_PARAMS = [pytest.param(c, id=c.id) for c in CASES]
SETTINGS = settings(max_examples=10, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def opt(fn, cleanup: bool = True) -> son.Graph:
    g = son.parse(fn)
    combined(g, cleanup=cleanup)
    g.verify()
    return g


def opt_sccp(fn) -> son.Graph:
    g = son.parse(fn)
    sccp(g)
    return g


def agrees(fn, g: son.Graph, *argss) -> None:
    for args in argss:
        assert run_son(g, args) == run_python(fn, args), args


# ================================================================ only the combination finds these
def test_twin_induction_variables_are_congruent_only_optimistically():
    """x != y is false only if x and y are congruent, and they are congruent only if
    the branch that adds 7 is unreachable: combined proves ``return 0``."""
    g = opt(twin_inductions)
    # only n's countdown is left (an empty loop is not the analysis' business)
    # (n > 0 refines n on the loop's arm: n - 1 there cannot wrap)
    assert ir(g) == ("%8 loop(start, %16)\n  %12 = phi(n, (refine[gt](%12, 0)+-1))\n"
                     "%15 if (%12>0)  [from %8]\n%17 false(%15)\nreturn 0  [from %17]\n%16 true(%15)")
    assert g.param(0) is None  # x's and y's phis are gone, and with them every use of a
    agrees(twin_inductions, g, (5, 3), (-2, 0), (0, 10))


def test_sccp_alone_does_not_prove_the_twins_equal():
    g = opt_sccp(twin_inductions)
    assert "return (%10-%11)  [from %17]" in ir(g) and "if (%10!=%11)" in ir(g)
    assert g.return_type == INT


def nested_twins(a: int, n: int, m: int):
    x = a
    y = a
    i = 0
    while i < n:
        j = 0
        while j < m:
            if x != y:
                y = 0
            x += 3
            y += 3
            j += 1
        x -= 1
        y -= 1
        i += 1
    return x - y


def test_twin_induction_variables_in_nested_loops():
    g = opt(nested_twins)
    assert g.return_type == constant(0)
    assert sum(type(n) is Loop for n in g.nodes()) == 2  # the loops themselves stay
    assert g.return_type != opt_sccp(nested_twins).return_type
    agrees(nested_twins, g, (1, 2, 3), (7, 0, 5), (-4, 3, 0))


def doubled(a: int, n: int):
    x = a
    y = a
    while n > 0:
        x = x * 2 + 1
        y = y * 2 + 1
        n -= 1
    return x == y


def test_congruent_loop_phis_are_merged_and_their_compare_folds():
    g = opt(doubled)
    assert "return True  [from %17]" in ir(g).splitlines()
    assert g.param(0) is None and g.return_type == constant(True)
    assert opt_sccp(doubled).return_type == son.nodes.BOOL
    agrees(doubled, g, (3, 4), (-1, 0))


def doubled_sum(a: int, n: int):
    x = a
    y = a
    while n > 0:
        x = x * 2 + 1
        y = y * 2 + 1
        n -= 1
    return x + y


@pytest.mark.parametrize("cleanup", [False, True])
def test_congruent_phis_share_one_leader(cleanup):
    """The rewrite alone (no cleanup peephole) replaces y's phi and update by x's."""
    g = son.parse(doubled_sum)
    assert "return (%10+%11)" in ir(g)
    stats = combined(g, cleanup=cleanup)
    g.verify()
    assert stats["congruent"] >= 1
    assert [n.nid for n in g.nodes() if type(n) is Phi] == [10, 12]  # x's and n's phis
    assert "return (%10+%10)  [from %17]" in ir(g).splitlines()
    agrees(doubled_sum, g, (3, 4), (-5, 0))


def test_analysis_puts_the_twins_in_one_class_and_the_counter_alone():
    g = son.parse(twin_inductions)
    leader, stats = analyze(g)
    x, y, n = (p for p in sorted(g.nodes(), key=lambda m: m.nid) if type(p) is Phi and p.inputs[0] is not None
               and type(p.inputs[0]) is Loop)
    assert leader.get(y, y) is leader.get(x, x)
    assert leader.get(n, n) is n and leader.get(n, n) is not leader.get(x, x)
    assert stats["iterations"] >= 2  # the back edge has to be crossed once


# ================================================================ SCCP's checklist still holds
def flip_flop(n: int):
    x = 1
    while n > 0:
        x = 2 - x
        n -= 1
    return x


def test_constant_through_a_loop_phi():
    g = opt(flip_flop)
    assert "return 1  [from %16]" in ir(g).splitlines()
    assert g.return_type == constant(1) and not any(type(p) is Phi and p.type is INT and p.inputs[1].type
                                                    == constant(1) for p in g.nodes())
    agrees(flip_flop, g, (0,), (5,))


def dead_branch(n: int):
    x = 1
    while n > 0:
        if x > 5:
            x = 100
        n -= 1
    return x


def test_dead_branch_is_cut_off():
    g = opt(dead_branch)
    assert g.return_type == constant(1)
    assert "100" not in ir(g)
    agrees(dead_branch, g, (0,), (3,))


def zero_through_loop(a: int, n: int):
    z = 0
    while n > 0:
        z = z * 5
        n -= 1
    return a // z


def test_division_by_zero_is_never_folded():
    g = opt(zero_through_loop)
    assert [type(r) for r in g.stop.inputs] == [Raise] and g.stop.inputs[0].exc is ZeroDivisionError
    with pytest.raises(ZeroDivisionError):
        son.interpret(g, 7, 3)
    agrees(zero_through_loop, g, (7, 0), (0, 2))


def nan_compares(n: int):
    x = math.nan
    while n > 0:
        x = x + 1.0
        n -= 1
    return (x == x) + 2 * (x != x) + 4 * (x < 1.0) + 8 * (x >= x)


def test_nan_compares_fold_to_the_ieee_result():
    g = opt(nan_compares)
    assert g.return_type == constant(2)
    agrees(nan_compares, g, (0,), (3,))


def spin(n: int):
    if n > 0:
        while True:
            n = n + 1
    return n


def test_infinite_loop_is_kept():
    g = opt(spin)
    assert any(type(x) is Loop for x in g.nodes()) and any(type(x) is Never for x in g.nodes())
    assert son.interpret(g, -3) == -3


def float_twins(a: float, n: int):
    x = a
    y = a
    while n > 0:
        x = x * 2.0
        y = y * 2.0
        n -= 1
    return x != y


def test_float_self_compare_is_not_folded():
    """x and y are congruent floats, but x != x is True for NaN: the compare stays."""
    g = opt(float_twins)
    assert g.return_type == son.nodes.BOOL and "!=" in ir(g)
    assert son.interpret(g, math.nan, 2) is True and son.interpret(g, 1.5, 2) is False
    agrees(float_twins, g, (math.nan, 0), (math.inf, 3), (-0.0, 1))


# ================================================================ what must not be merged
def different_steps(a: int, n: int):
    x = y = a
    while n > 0:
        if x != y:
            x = x + 7
        x += 1
        y += 2
        n -= 1
    return x - y


def test_induction_variables_with_different_steps_stay_apart():
    g = opt(different_steps)
    assert g.return_type == INT and "+7" in ir(g).replace(" ", "")
    agrees(different_steps, g, (0, 0), (1, 1), (1, 2), (3, 5))


def two_loops(a: int, n: int, m: int):
    x = a
    i = 0
    while i < n:
        x += 1
        i += 1
    y = a
    j = 0
    while j < m:
        y += 1
        j += 1
    return x - y


def test_phis_of_different_loops_stay_apart():
    g = opt(two_loops)
    assert g.return_type == INT and sum(type(n) is Loop for n in g.nodes()) == 2
    agrees(two_loops, g, (0, 3, 1), (5, 0, 2), (1, 2, 2))


def two_diamonds(a: int, b: int, c: bool, d: bool):
    x = a if c else b
    y = a if d else b
    return x - y


def test_phis_of_different_regions_stay_apart():
    g = opt(two_diamonds)
    assert g.return_type == INT
    agrees(two_diamonds, g, (1, 2, True, False), (1, 2, False, True), (1, 2, True, True))


def kinds_and_signed_zeros(n: int, a: float):
    i = 1
    f = 1.0
    p = 0.0
    q = -0.0
    while n > 0:
        i = i * 3
        f = f * 3.0
        p = p * a
        q = q * a
        n -= 1
    return math.copysign(1.0, p) + 10 * math.copysign(1.0, q) + 100 * f + 1000 * i


def test_int_and_float_and_signed_zeros_are_never_congruent():
    g = son.parse(kinds_and_signed_zeros)
    leader, _ = analyze(g)
    phis = sorted((n for n in g.nodes() if type(n) is Phi and type(n.inputs[0]) is Loop
                   and n.inputs[1].type != INT), key=lambda p: p.nid)
    starts = [p.inputs[1].type for p in phis]
    assert starts == [constant(1), constant(1.0), constant(0.0), constant(-0.0)]
    assert len({leader.get(p, p) for p in phis}) == 4
    g = opt(kinds_and_signed_zeros)
    agrees(kinds_and_signed_zeros, g, (0, 2.0), (2, -1.5), (1, math.nan))


def test_int_and_float_constants_through_loops_keep_their_kinds():
    def consts(n: int):
        i = 1
        f = 1.0
        while n > 0:
            i = 2 - i
            f = 2.0 - f
            n -= 1
        return f + i * 0.5 if n < 100 else i

    g = opt(consts)
    assert FLOAT.meet(g.return_type) != son.nodes.BOTTOM
    agrees(consts, g, (0,), (3,))


def load_store_load(a: IntArray, i: int):
    x = a[i]
    a[i] = x + 1
    y = a[i]
    return y - x


def test_loads_of_different_memory_states_stay_apart():
    g = opt(load_store_load)
    assert g.return_type == INT
    agrees(load_store_load, g, (np.array([5, 6], dtype=np.int64), 1), (np.array([5], dtype=np.int64), -1),
           (np.array([5], dtype=np.int64), 3))


def two_arrays(n: int):
    p = np.zeros(n)
    q = np.zeros(n)
    k = 0
    while k < n:
        p[k] = 1.0
        k += 1
    return q[0] + 10 * p[0]


def test_allocations_are_never_congruent():
    g = opt(two_arrays)
    assert sum(type(x) is NewArray for x in g.nodes()) == 2
    agrees(two_arrays, g, (1,), (3,), (0,))


# ================================================================ order independence
@pytest.mark.parametrize("case", CASE_PARAMS)
def test_solution_does_not_depend_on_the_evaluation_order(case):
    """Every valid order (inputs first, except across loop back edges) gives the same
    types and the same congruence classes."""

    def solve(rng):
        g = son.parse(case.fn)
        leader, _ = analyze(g, rng)
        types = {n.nid: n.type for n in g.live()}
        classes: dict[int, set[int]] = {}
        for n, m in leader.items():
            classes.setdefault(m.nid, {m.nid}).add(n.nid)
        return types, sorted(sorted(c) for c in classes.values())

    base = solve(None)
    for seed in (1, 2):
        assert solve(random.Random(seed)) == base, seed


# ================================================================ the corpus against CPython
@functools.cache
def combined_graph(fn) -> son.Graph:
    """The peephole parse of ``fn`` after ``combined`` (verified), once per function."""
    g = son.parse(fn)
    combined(g)
    g.verify()
    return g


@pytest.mark.parametrize("case", CASE_PARAMS)
def test_corpus_agrees_with_cpython_after_combined(case):
    g = combined_graph(case.fn)

    @SETTINGS
    @given(st.tuples(*case.strategies))
    def check(args):
        assert run_son(g, args) == run_python(case.fn, args), args

    check()
    agrees(case.fn, g, *case.examples)


def _constants(g: son.Graph) -> int:
    return sum(1 for n in g.live() if type(n) is Constant)


@pytest.mark.parametrize("case", CASE_PARAMS)
def test_combined_never_grows_the_graph_nor_loses_sccp_constants(case):
    g, c, s = son.parse(case.fn), combined_graph(case.fn), opt_sccp(case.fn)
    assert len(c) <= len(g) and len(c) <= len(s)
    assert _constants(c) >= _constants(s)


@pytest.mark.parametrize("case", CASE_PARAMS)
def test_combined_proves_everything_sccp_proves(case):
    """Node by node (same ids): every type SCCP's analysis gives, the combined analysis
    gives too or a more precise one (a constant where SCCP has a kind, dead control
    where SCCP has reachable).  Int ranges are the exception that proves nothing
    constant: widening (son/nodes/types.py) sends a growing loop phi's moving end to the
    int64 limit after a few growths, and the two analyses visit nodes in different
    orders, so one may widen where the other settled; a constant or dead control
    SCCP proves, combined must prove too."""
    from son.sccp.sccp import analyze as sccp_analyze

    g = son.parse(case.fn)
    s, c = g.copy(), g.copy()
    sccp_analyze(s)
    analyze(c)
    theirs = {n.nid: n.type for n in s.live()}
    for n in c.live():
        mine, other = n.type, theirs[n.nid]
        if mine.kind == other.kind == "int" and not other.is_constant:
            continue
        assert mine.isa(other), (n, mine, other)


# ================================================================ generated programs
@pytest.mark.parametrize("make", ["deep_nesting", "branches_and_loops"])
def test_generated_programs_agree_with_cpython_after_combined(make):
    """19 nested loops (the unit of iteration is a whole loop nest) and 400 sequential
    ifs and loops (each loop a unit of its own)."""
    from test_scale import INPUTS, branches_and_loops_source, cpython, deep_nesting_source

    if make == "deep_nesting":  # b > 1 would run b**19 iterations
        src, inputs = deep_nesting_source(90), [(5, 1), (-7, 1), (3, 0), (2, 1), (1000, 0)]
    else:
        src, inputs = branches_and_loops_source(400), INPUTS
    g = son.parse_source(src, argtypes=[int, int])
    stats = combined(g)
    g.verify()
    fn = cpython(src)
    for args in inputs:
        assert son.interpret(g, *args) == fn(*args), args
    if make == "deep_nesting":
        assert stats["iterations"] >= 19  # a fact crosses each of the nested back edges
