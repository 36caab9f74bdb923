"""Hardening (issue 7): every stage terminates and none depends on Python's recursion limit.

* Termination: user rules that undo each other (registered through ``son.peephole.rule``,
  as notebook 05 does) make the peephole engine raise ``SonError`` naming the rules and
  the node, whether they cycle (a state repeats) or grow terms without end (a bound).
* Scale: generated functions of ~20k nodes (the default run) and ~100k nodes (marked
  ``slow``) go through the parse, every pass, the schedule, code generation, the
  interpreter, the text IR, dot, networkx, verify, copy and diff with the recursion
  limit lowered to ~150 frames above the test, so any recursive graph walk fails here.
  Results are checked against CPython executing the same source.
* A kernel that Numba refuses is a ``KernelCompileError`` (a ``SonError``) carrying the
  generated source and naming its file.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager

import pytest
from test_scale import branches_and_loops_source, cpython, straight_line_source

import son
from son.driver import optimize
from son.errors import KernelCompileError
from son.exec.codegen import generate
from son.nodes import Add, Constant, Mul
from son.nodes.printer import format_graph
from son.peephole import DEFAULT_RULES, MAX_REWRITES, rule
from son.peephole.rules import K
from son.viz import diff, to_dot, to_networkx

son.debug = True


# ---------------------------------------------------------------- termination
@pytest.fixture
def user_rules():
    """Take out the rules a test registers globally (in ``DEFAULT_RULES``) after it."""
    before = set(DEFAULT_RULES.names())
    saved = {cls: list(rules) for cls, rules in DEFAULT_RULES.table.items()}
    try:
        yield
    finally:
        for name in DEFAULT_RULES.names():
            if name not in before:
                DEFAULT_RULES.remove(name)
    assert DEFAULT_RULES.table == saved


def _is_param(x, name: str) -> bool:
    return type(x).__name__ == "Proj" and getattr(x, "label", None) == name


def product(a: int, b: int):
    return a * b + 1


def test_two_rules_that_swap_back_and_forth_are_reported_by_name(user_rules):
    # first in the table, so that the built-in ``commute`` does not get there first
    @rule(Mul, first=True)
    def a_times_b_to_b_times_a(n):
        """a*b -> b*a (a deliberately cycling rule)."""
        if _is_param(n.lhs, "a"):
            n.swap_inputs(1, 2)
            return n

    @rule(Mul, first=True)
    def b_times_a_to_a_times_b(n):
        """b*a -> a*b (undoes the rule above)."""
        if _is_param(n.lhs, "b"):
            n.swap_inputs(1, 2)
            return n

    with pytest.raises(son.SonError) as e:
        son.parse(product)
    msg = str(e.value)
    assert "cycle" in msg and "(Mul)" in msg
    assert "a_times_b_to_b_times_a" in msg and "b_times_a_to_a_times_b" in msg
    assert "commute" not in msg


def test_a_rule_that_fights_a_builtin_rule_names_both(user_rules):
    @rule(Mul)
    def constant_left(n):
        """c*x -> x*c rebuilt as a new node the other way round (fights ``commute``)."""
        if type(n.lhs) is not Constant:
            return Mul(n.graph, n.rhs, n.lhs)

    def scale(a: int):
        return a * 3

    with pytest.raises(son.SonError, match=r"cycle on %\d+:\* \(Mul\).*commute.*constant_left"):
        son.parse(scale)


def test_the_cycle_is_found_by_the_peephole_pass_too(user_rules):
    g = son.parse(product, peephole=False)

    @rule(Mul, first=True)
    def swap_always(n):
        """a*b -> b*a in place, every time."""
        n.swap_inputs(1, 2)
        return n

    with pytest.raises(son.SonError, match="swap_always"):
        optimize(g, "peephole")
    DEFAULT_RULES.remove("swap_always")
    h, _ = optimize(g, "peephole")  # without the rule the same graph settles
    assert son.interpret(h, 6, 7) == product(6, 7)


def test_a_rule_that_grows_in_place_hits_the_bound(user_rules):
    @rule(Add)
    def bump_in_place(n):
        """x + c -> x + (c+1): never the same twice, never a fixpoint."""
        if type(n.rhs) is Constant and n.type.is_int:
            n.set_input(2, K(n, n.rhs.type.con + 1))
            return n

    def f(a: int):
        return a + 1

    with pytest.raises(son.SonError) as e:
        son.parse(f)
    msg = str(e.value)
    assert "do not settle" in msg and f"{MAX_REWRITES + 1} in-place rewrites" in msg
    assert "bump_in_place" in msg


def test_a_rule_that_builds_ever_new_nodes_hits_the_bound(user_rules):
    @rule(Add)
    def bump_new(n):
        """x + c -> a new x + (c+1)."""
        if type(n.rhs) is Constant and n.type.is_int:
            return Add(n.graph, n.lhs, K(n, n.rhs.type.con + 1))

    def f(a: int):
        return a + 1

    with pytest.raises(son.SonError, match=r"do not settle.*new nodes built.*bump_new"):
        son.parse(f)


def test_long_legitimate_chains_are_not_cycles():
    """Folded guards one below the other (each proj_if_fold hands over to the guard above),
    a long reassociation chain, and phi(phi(...)): far more than MAX_REWRITES successive
    rewrites, all of them progress."""
    n_terms = 4 * MAX_REWRITES
    src = "def f(a: int):\n    return a" + "".join(f" + {i}" for i in range(1, n_terms)) + "\n"
    raw = son.parse_source(src, peephole=False)
    g, _ = optimize(raw, "peephole")
    assert son.interpret(g, 5) == cpython(src)(5)
    assert len(g) < len(raw) // 10
    shifts = "def f(a: int):\n    x = a\n" + "".join("    x = x + (a >> 1)\n" for _ in range(n_terms)) \
        + "    return x\n"  # every shift carries a guard (b < 0) that folds
    raw = son.parse_source(shifts, peephole=False)
    g, _ = optimize(raw, "peephole")
    assert son.interpret(g, 7) == cpython(shifts)(7)
    assert g.rule_hits["proj_if_fold"] >= n_terms


# ---------------------------------------------------------------- no recursion at scale
@contextmanager
def shallow_stack(frames_left: int = 150):
    """Lower the recursion limit to ``frames_left`` frames above the caller's."""
    depth, f = 0, sys._getframe()
    while f is not None:
        depth, f = depth + 1, f.f_back
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + frames_left)
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def every_stage(source: str, inputs: list[tuple]) -> dict[str, int]:
    """Run every stage on ``source`` under a shallow stack; check values against CPython."""
    expected = [cpython(source)(*args) for args in inputs]
    with shallow_stack():
        raw = son.parse_source(source, peephole=False, argtypes=[int, int])
        raw.verify()
        parsed = son.parse_source(source, argtypes=[int, int])
        copy = raw.copy()
        peep, _ = optimize(copy, "peephole,dce", inplace=True)
        sccp, _ = optimize(raw, "sccp")
        comb, _ = optimize(raw, "combined")
        sched = son.schedule(sccp)
        text = generate(sched, "f")
        results = {name: [son.interpret(g, *a) for a in inputs]
                   for name, g in [("raw", raw), ("parsed", parsed), ("peephole", peep), ("sccp", sccp),
                                   ("combined", comb)]}
        ir = format_graph(raw, types=True)
        dot = to_dot(raw, types=True)
        dot_blocks = to_dot(sccp, schedule=sched)
        nxg = to_networkx(sccp, schedule=sched)
        d = diff(raw, peep)
        d_dot = d.to_dot()
    for name, got in results.items():
        assert got == expected, name
    compile(text, "<kernel>", "exec")  # the generated kernel is valid Python
    assert ir.count("\n") > len(raw) // 4
    assert dot.count(" -> ") > len(raw)
    assert "cluster_B" in dot_blocks
    assert nxg.number_of_nodes() == len(sccp)
    assert d_dot.count("\n") > len(raw)
    return {"raw": len(raw), "parsed": len(parsed), "peephole": len(peep), "sccp": len(sccp)}


INPUTS = [(7, 3), (-12345, 2)]


def mixed_source(n_stmts: int, n_constructs: int) -> str:
    """One function: ``n_stmts`` straight-line statements, then ``n_constructs`` ifs and loops."""
    straight = straight_line_source(n_stmts).splitlines()[:-1]  # without its return
    branches = branches_and_loops_source(n_constructs).splitlines()[1:]  # without its def
    assert branches[0] == "    x = a & 4095"
    branches[0] = "    x = (x ^ y ^ z) & 4095"  # the straight-line part stays live
    return "\n".join(straight + branches) + "\n"


def test_every_stage_on_20k_nodes_without_recursion():
    sizes = every_stage(mixed_source(2_000, 650), INPUTS)
    assert sizes["raw"] >= 20_000


@pytest.mark.slow
@pytest.mark.parametrize("make, size", [(straight_line_source, 20_000), (branches_and_loops_source, 6_000)])
def test_every_stage_on_100k_nodes_without_recursion(make, size):
    sizes = every_stage(make(size), INPUTS)
    assert sizes["raw"] >= 100_000


def test_deep_expression_chain_parses_under_a_shallow_stack():
    """``a*0 + a*1 + ...``: a syntax tree 3,000 levels deep; son raises the limit for
    CPython's parser and its own syntax-tree walk only, every graph walk is iterative."""
    source = "def f(a, b):\n    return " + " + ".join(f"a*{i}" for i in range(3_000)) + "\n"
    with shallow_stack():
        g = son.parse_source(source, argtypes=[int, int])
        h, _ = optimize(g, "sccp")
        text = generate(son.schedule(h), "f")
        got = son.interpret(h, 5, 0)
        dot = to_dot(h)
    assert got == 5 * sum(range(3_000))  # closed form: CPython's own compiler refuses this depth
    assert "def f(" in text and dot.startswith("digraph")


def test_a_5k_node_function_compiles_and_runs():
    source = straight_line_source(2_000)
    g = son.parse_source(source, argtypes=[int, int])
    assert len(g) >= 5_000
    k = son.compile(g)
    for args in INPUTS:
        assert k(*args) == cpython(source)(*args)


# ---------------------------------------------------------------- numba errors
def test_a_kernel_numba_rejects_is_a_son_error_with_the_source(monkeypatch):
    import son.exec.codegen as codegen

    def bad_generate(schedule, name=None, decorator="", **_module):
        params = ", ".join(p for p, _ in schedule.graph.params)
        return f"{decorator}\ndef {name}({params}):\n    return {params.split(',')[0]} + 'text'\n"

    monkeypatch.setattr(codegen, "generate", bad_generate)

    def add_text(a: int):  # what is parsed does not matter: the kernel source is replaced
        return a + 41

    with pytest.raises(son.SonError) as e:
        son.compile(son.parse(add_text))
    err = e.value
    assert isinstance(err, KernelCompileError)
    assert "return a + 'text'" in err.source and err.source.startswith('"""Generated by son')
    assert err.path in str(err) and open(err.path).read() == err.source
    assert "TypingError" in str(err) and "add_text" in str(err)
    assert "\x1b[" not in str(err)  # numba's colour codes are stripped

    jf = son.jit(add_text, fallback="error")
    with pytest.raises(KernelCompileError, match="numba could not compile"):
        jf(1)
